<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="ko_KR">
<context>
    <name>Duration</name>
    <message>
        <source>"%1" is not a duration; write it with a unit, e.g. 60s, 1500ms or 2m</source>
        <translation>기간 형식이 아닙니다: "%1". 60s, 1500ms, 2m처럼 단위를 붙여 쓰십시오</translation>
    </message>
    <message>
        <source>"%1" is longer than 24 hours</source>
        <translation>24시간보다 깁니다: "%1"</translation>
    </message>
    <message>
        <source>"%1" must be greater than zero</source>
        <translation>0보다 커야 합니다: "%1"</translation>
    </message>
</context>
<context>
    <name>SettingRow</name>
    <message>
        <source>Policy</source>
        <translation>정책</translation>
    </message>
    <message>
        <source>Primary timeout</source>
        <translation>기본 제한 시간</translation>
    </message>
    <message>
        <source>Fallback timeout</source>
        <translation>대체 제한 시간</translation>
    </message>
    <message>
        <source>Total budget</source>
        <translation>전체 예산</translation>
    </message>
    <message>
        <source>derived: primary + fallback timeout</source>
        <translation>자동: 기본 + 대체 제한 시간</translation>
    </message>
    <message>
        <source>Image model</source>
        <translation>이미지 모델</translation>
    </message>
    <message>
        <source>Image timeout per try</source>
        <translation>시도당 이미지 제한 시간</translation>
    </message>
    <message>
        <source>Image retries</source>
        <translation>이미지 재시도</translation>
    </message>
    <message>
        <source>Generate captions (a failure falls back to default captions)</source>
        <translation>캡션 생성 (실패하면 기본 캡션 사용)</translation>
    </message>
    <message>
        <source>Captions timeout</source>
        <translation>캡션 제한 시간</translation>
    </message>
    <message>
        <source>Store prompts and responses</source>
        <translation>프롬프트와 응답 저장</translation>
    </message>
    <message>
        <source>Story-derived text (storyboards, captions). Needed for the 24 h cache and to reopen comparisons with their text. Off by default (docs/contract.md §5.1).</source>
        <translation>이야기에서 나온 텍스트(스토리보드, 캡션). 24시간 캐시와 비교 본문 다시 열기에 필요합니다. 기본값은 꺼짐입니다 (docs/contract.md §5.1).</translation>
    </message>
    <message>
        <source>Attempts in flight per provider</source>
        <translation>제공자별 동시 시도 수</translation>
    </message>
    <message>
        <source>Queued per provider</source>
        <translation>제공자별 대기 수</translation>
    </message>
    <message>
        <source>Proxy</source>
        <translation>프록시</translation>
    </message>
    <message>
        <source>from https_proxy / http_proxy / no_proxy</source>
        <translation>https_proxy / http_proxy / no_proxy 환경 변수 사용</translation>
    </message>
    <message>
        <source>The proxy for provider calls and for attaching to an engine: http://host:port, socks5://host:port, or none for direct connections. Empty: the environment's https_proxy, http_proxy and no_proxy.</source>
        <translation>제공자 호출과 엔진 연결에 쓰는 프록시입니다: http://host:port, socks5://host:port, 또는 직접 연결하려면 none. 비워 두면 환경 변수 https_proxy, http_proxy, no_proxy를 따릅니다.</translation>
    </message>
    <message>
        <source>Provider CA file</source>
        <translation>제공자 CA 파일</translation>
    </message>
    <message>
        <source>the system's certificate authorities only</source>
        <translation>시스템 인증 기관만 사용</translation>
    </message>
    <message>
        <source>A PEM file of certificate authorities that provider calls trust besides the system's: for a proxy that inspects TLS with a certificate of its own, or a gateway with a private CA.</source>
        <translation>제공자 호출이 시스템 인증 기관 외에 추가로 신뢰할 인증 기관의 PEM 파일입니다. 자체 인증서로 TLS를 검사하는 프록시나 사설 CA를 쓰는 게이트웨이에 씁니다.</translation>
    </message>
    <message>
        <source>Attaching: connect timeout</source>
        <translation>엔진 연결: 연결 제한 시간</translation>
    </message>
    <message>
        <source>Trusted proxies</source>
        <translation>신뢰하는 프록시</translation>
    </message>
    <message>
        <source>none: X-Forwarded-For is ignored</source>
        <translation>없음: X-Forwarded-For 무시</translation>
    </message>
    <message>
        <source>Requests per second per address</source>
        <translation>주소별 초당 요청 수</translation>
    </message>
    <message>
        <source>Attaching: command deadline</source>
        <translation>엔진 연결: 명령 마감 시간</translation>
    </message>
    <message>
        <source>Breakers per provider, role and stage</source>
        <translation>제공자·역할·단계별 차단기</translation>
    </message>
    <message>
        <source>Breaker window</source>
        <translation>차단기 집계 구간</translation>
    </message>
    <message>
        <source>Attempts before a breaker may open</source>
        <translation>차단기가 열리기 전 최소 시도 수</translation>
    </message>
    <message>
        <source>Failing share that opens a breaker</source>
        <translation>차단기를 여는 실패 비율</translation>
    </message>
    <message>
        <source>Breaker cooldown</source>
        <translation>차단기 대기 시간</translation>
    </message>
    <message>
        <source>The storyboard stage's preset (docs/contract.md §4.6 says what each hands to the fallback).</source>
        <translation>스토리보드 단계의 프리셋. 각 프리셋이 대체에 무엇을 넘기는지는 docs/contract.md §4.6에 있습니다.</translation>
    </message>
    <message>
        <source>How long the primary provider's attempt may take.</source>
        <translation>기본 제공자의 시도에 허용하는 시간.</translation>
    </message>
    <message>
        <source>How long the fallback provider's attempt may take.</source>
        <translation>대체 제공자의 시도에 허용하는 시간.</translation>
    </message>
    <message>
        <source>The whole stage's budget, from its first attempt to its answer.</source>
        <translation>첫 시도부터 응답까지 단계 전체에 허용하는 시간.</translation>
    </message>
    <message>
        <source>The image stage's model.</source>
        <translation>이미지 단계의 모델.</translation>
    </message>
    <message>
        <source>How long one try of the image stage may take.</source>
        <translation>이미지 단계의 시도 한 번에 허용하는 시간.</translation>
    </message>
    <message>
        <source>Tries of the image stage after its first.</source>
        <translation>이미지 단계의 첫 시도 뒤 재시도 횟수.</translation>
    </message>
    <message>
        <source>The captions stage; a failure there falls back to default captions.</source>
        <translation>캡션 단계. 실패하면 기본 캡션으로 대체합니다.</translation>
    </message>
    <message>
        <source>How long the captions stage may take.</source>
        <translation>캡션 단계에 허용하는 시간.</translation>
    </message>
    <message>
        <source>Attempts on the wire per provider, shared out between the engine threads.</source>
        <translation>제공자별로 동시에 전송 중일 수 있는 시도 수. 엔진 스레드가 나누어 씁니다.</translation>
    </message>
    <message>
        <source>Generations that may wait for a slot before their budget starts; beyond them a generation fails at once with NOT_SENT.</source>
        <translation>예산이 시작되기 전에 자리를 기다릴 수 있는 생성 수. 이를 넘는 생성은 곧바로 NOT_SENT 상태로 실패합니다.</translation>
    </message>
    <message>
        <source>Attached to an engine (bullpen-cli generate --engine): how long to wait for it to answer before giving up (exit code 5).</source>
        <translation>엔진에 연결할 때 응답을 기다리는 시간. 넘으면 포기합니다(종료 코드 5).</translation>
    </message>
    <message>
        <source>bullpen-engine: the balancers whose X-Forwarded-For it believes, as addresses or subnets separated by commas (10.0.0.0/8, 127.0.0.1); from any other peer the header is ignored.</source>
        <translation>bullpen-engine: X-Forwarded-For 헤더를 믿을 부하 분산기의 주소나 서브넷, 쉼표로 구분(10.0.0.0/8, 127.0.0.1). 다른 상대가 보낸 헤더는 무시합니다.</translation>
    </message>
    <message>
        <source>bullpen-engine: requests per second from one client address (through a trusted proxy, the one its X-Forwarded-For names), twice that in a burst; beyond it 429. 0: no such limit.</source>
        <translation>bullpen-engine: 클라이언트 주소 하나(신뢰하는 프록시를 거치면 X-Forwarded-For 헤더가 가리키는 주소)의 초당 요청 수. 순간적으로는 그 두 배까지 받고, 넘으면 429. 0: 제한 없음.</translation>
    </message>
    <message>
        <source>Attached to an engine: how long the whole command may take, result included; then a started generation is cancelled and the command gives up (exit code 5).</source>
        <translation>엔진에 연결했을 때 명령 전체(결과 포함)에 허용하는 시간. 넘으면 시작한 생성을 취소하고 포기합니다(종료 코드 5).</translation>
    </message>
    <message>
        <source>Breakers per provider, role and stage: while one is open the stage goes to its fallback at once. off: every request tries its primary first.</source>
        <translation>제공자·역할·단계별 차단기. 열려 있는 동안 그 단계는 곧바로 대체 제공자로 넘어갑니다. off: 모든 요청이 기본 제공자를 먼저 시도합니다.</translation>
    </message>
    <message>
        <source>How far back a breaker counts attempts.</source>
        <translation>차단기가 시도를 세는 기간.</translation>
    </message>
    <message>
        <source>Attempts that must have reached the provider within the window before its breaker may open.</source>
        <translation>차단기가 열리려면 그 기간 안에 제공자에 도달해야 하는 시도 수.</translation>
    </message>
    <message>
        <source>The share of those attempts failing by the provider's fault that opens the breaker.</source>
        <translation>그 시도 가운데 제공자 잘못으로 실패한 비율이 이 값에 이르면 차단기가 열립니다.</translation>
    </message>
    <message>
        <source>How long an open breaker waits before one trial request; doubles while the trials fail.</source>
        <translation>열린 차단기가 시험 요청 하나를 보내기 전에 기다리는 시간. 시험이 실패하는 동안 두 배로 늘어납니다.</translation>
    </message>
</context>
<context>
    <name>bullpen::EngineSetup</name>
    <message>
        <source>built-in simulator on http://127.0.0.1:%1 (scenario %2 unless a request names its own), %3 → %4%5; no provider key is configured or --simulator was given</source>
        <translation>내장 시뮬레이터 http://127.0.0.1:%1 (요청이 따로 지정하지 않으면 시나리오 %2), %3 → %4%5. 제공자 키가 설정되지 않았거나 --simulator가 주어졌습니다</translation>
    </message>
    <message>
        <source> (fallback provider chosen for the simulator; set STORYBOARD_FALLBACK_PROVIDER to change)</source>
        <translation> (시뮬레이터용으로 고른 대체 제공자. 바꾸려면 STORYBOARD_FALLBACK_PROVIDER 설정)</translation>
    </message>
    <message>
        <source>live providers: %1</source>
        <translation>실제 제공자: %1</translation>
    </message>
    <message>
        <source>the silence could not be stored (the engine's log says why); nothing was changed. Try again when the store answers</source>
        <translation>경보 무음을 저장소에 저장하지 못했습니다(이유는 엔진 로그 참고). 아무것도 바뀌지 않았습니다. 저장소가 응답하면 다시 시도하세요</translation>
    </message>
    <message>
        <source>the end of the silence could not be stored (the engine's log says why); it still lasts. Try again when the store answers</source>
        <translation>경보 무음 해제를 저장소에 저장하지 못했습니다(이유는 엔진 로그 참고). 무음은 계속됩니다. 저장소가 응답하면 다시 시도하세요</translation>
    </message>
</context>
<context>
    <name>bullpen::RecordText</name>
    <message>
        <source>no provider was started</source>
        <translation>어떤 제공자도 시작하지 않음</translation>
    </message>
    <message>
        <source>not started: Bullpen's own queue for %1 is full</source>
        <translation>시작 안 함: Bullpen 자체 대기열(%1)이 가득 참</translation>
    </message>
    <message>
        <source>probe not sent: the %1 stage has no fallback provider</source>
        <translation>프로브 보내지 않음: %1 단계에 대체 제공자가 없음</translation>
    </message>
    <message>
        <source>probe not sent: %1 is %2 (%3)</source>
        <translation>프로브 보내지 않음: %1 상태 %2 (%3)</translation>
    </message>
    <message>
        <source>probe succeeded</source>
        <translation>프로브 성공</translation>
    </message>
    <message>
        <source>probe failed with %1; a probe has no fallback and no second round</source>
        <translation>프로브 실패(%1). 프로브에는 대체 제공자도 두 번째 회차도 없음</translation>
    </message>
    <message>
        <source>the primary succeeded; no fallback needed</source>
        <translation>기본 제공자 성공. 대체 필요 없음</translation>
    </message>
    <message>
        <source>the primary succeeded in round %1</source>
        <translation>기본 제공자가 %1회차에 성공</translation>
    </message>
    <message>
        <source>the primary %1 was skipped (%2); the fallback provider %3 succeeded</source>
        <translation>기본 제공자 %1 건너뜀(%2). 대체 제공자 %3 성공</translation>
    </message>
    <message>
        <source>the primary failed with %1; the fallback provider %2 succeeded</source>
        <translation>기본 제공자 실패(%1). 대체 제공자 %2 성공</translation>
    </message>
    <message>
        <source>cancelled right after the attempt ended with %1; nothing further is started</source>
        <translation>시도가 끝난 직후(%1) 취소됨. 더 시작하지 않음</translation>
    </message>
    <message>
        <source>cancelled; no fallback provider is started for a cancelled generation</source>
        <translation>취소됨. 취소된 생성에는 대체 제공자를 시작하지 않음</translation>
    </message>
    <message>
        <source>%1; no round %2: the stage budget ends before the pause does</source>
        <translation>%1. %2회차 없음: 대기 시간이 끝나기 전에 단계 예산이 끝남</translation>
    </message>
    <message>
        <source>no fallback: %1</source>
        <translation>대체 안 함: %1</translation>
    </message>
    <message>
        <source>no fallback: the stage budget of %1 ms was used up by the primary</source>
        <translation>대체 안 함: 단계 예산 %1 ms를 기본 제공자가 모두 씀</translation>
    </message>
    <message>
        <source>no fallback: %1 already has %2 attempts in flight (the in-flight limit), and a fallback attempt never waits once the stage budget runs</source>
        <translation>대체 안 함: 제공자 %1에 이미 진행 중인 시도가 %2건(동시 진행 한도)이며, 단계 예산이 흐르기 시작한 뒤에는 대체 시도가 기다리지 않음</translation>
    </message>
    <message>
        <source>the primary %1 was skipped (%2); the fallback provider %3 failed, and the primary is not called for this stage</source>
        <translation>기본 제공자 %1 건너뜀(%2). 대체 제공자 %3도 실패했으며, 이 단계에서는 기본 제공자를 호출하지 않음</translation>
    </message>
    <message>
        <source>the fallback provider %1 failed too; the primary is never called again</source>
        <translation>대체 제공자 %1도 실패함. 기본 제공자는 다시 호출하지 않음</translation>
    </message>
    <message>
        <source>%1 after %2 rounds</source>
        <translation>%2회차 뒤 %1</translation>
    </message>
    <message>
        <source>no fallback provider is configured</source>
        <translation>대체 제공자가 설정되지 않음</translation>
    </message>
    <message>
        <source>Bullpen shut down before the next attempt</source>
        <translation>다음 시도 전에 Bullpen이 종료됨</translation>
    </message>
    <message>
        <source>cancelled by the operator before the next attempt</source>
        <translation>다음 시도 전에 운영자가 취소함</translation>
    </message>
    <message>
        <source>served from cache: an identical request succeeded within 24 h</source>
        <translation>캐시에서 제공: 같은 요청이 24시간 안에 성공함</translation>
    </message>
    <message>
        <source>%1 is not a kind the %2 policy hands to a fallback provider</source>
        <translation>%1 실패는 %2 정책이 대체 제공자에게 넘기는 종류가 아님</translation>
    </message>
    <message>
        <source>TRANSIENT_SERVER without a capacity marker; the capacity policy falls back only on overload</source>
        <translation>용량 표시 없는 TRANSIENT_SERVER. capacity 정책은 과부하일 때만 대체함</translation>
    </message>
    <message>
        <source>the fallback provider %1 has no key</source>
        <translation>대체 제공자 %1의 키가 없음</translation>
    </message>
    <message>
        <source>the fallback provider is the same provider and model</source>
        <translation>대체 제공자가 기본 제공자와 같은 제공자·모델임</translation>
    </message>
    <message>
        <source>cancelled by the operator</source>
        <translation>운영자가 취소함</translation>
    </message>
    <message>
        <source>cancelled: Bullpen is shutting down</source>
        <translation>취소됨: Bullpen이 종료하는 중</translation>
    </message>
    <message>
        <source>Bullpen's queue for %1 is full: %2 attempts in flight (the limit) and %3 generations waiting; nothing was sent. Try again later, or raise BULLPEN_MAX_IN_FLIGHT / BULLPEN_MAX_QUEUED if %1 allows more</source>
        <translation>제공자 %1의 Bullpen 대기열이 가득 찼습니다: 진행 중인 시도 %2건(한도), 대기 중인 생성 %3건. 아무것도 보내지 않았습니다. 나중에 다시 시도하거나, 제공자 %1에서 허용하면 BULLPEN_MAX_IN_FLIGHT / BULLPEN_MAX_QUEUED를 늘리세요</translation>
    </message>
    <message>
        <source>no %1 adapter is configured; check the provider settings</source>
        <translation>%1 어댑터가 설정되지 않음. 제공자 설정을 확인하세요</translation>
    </message>
    <message>
        <source>drained by %1</source>
        <translation>제외(운영자 %1)</translation>
    </message>
    <message>
        <source>drained by %1: %2</source>
        <translation>제외(운영자 %1): %2</translation>
    </message>
    <message>
        <source>drained by %1 (until %2)</source>
        <translation>제외(운영자 %1, %2까지)</translation>
    </message>
    <message>
        <source>drained by %1: %2 (until %3)</source>
        <translation>제외(운영자 %1, %3까지): %2</translation>
    </message>
    <message>
        <source>circuit open: %1; tried again after a cooldown of %2 ms</source>
        <translation>차단기 열림: %1. 대기 %2밀리초 뒤 다시 시도</translation>
    </message>
    <message>
        <source>circuit half-open: its one trial request is in flight (%1)</source>
        <translation>차단기 반열림: 시험 요청 1건 진행 중 (%1)</translation>
    </message>
    <message>
        <source>%1 of %2 attempts in the last %3 s failed (%4)</source>
        <translation>최근 %3초 동안 시도 %2건 중 %1건 실패 (%4)</translation>
    </message>
    <message>
        <source>the last %1 attempts failed in a row (%2 of %3 in the last %4 s: %5)</source>
        <translation>최근 시도 %1건 연속 실패 (최근 %4초 동안 %3건 중 %2건: %5)</translation>
    </message>
    <message>
        <source>the trial request succeeded</source>
        <translation>시험 요청 성공</translation>
    </message>
    <message>
        <source>the trial request reached the provider (%1)</source>
        <translation>시험 요청이 제공자에 도달함 (%1)</translation>
    </message>
    <message>
        <source>the trial request failed (%1)</source>
        <translation>시험 요청 실패 (%1)</translation>
    </message>
    <message>
        <source>cooldown of %1 ms over</source>
        <translation>대기 %1밀리초 끝남</translation>
    </message>
    <message>
        <source>the drain ran until %1</source>
        <translation>제외가 %1까지 이어짐</translation>
    </message>
    <message>
        <source>restored by %1</source>
        <translation>복원(운영자 %1)</translation>
    </message>
    <message>
        <source>restored by %1: %2</source>
        <translation>복원(운영자 %1): %2</translation>
    </message>
    <message>
        <source>no longer in the store</source>
        <translation>저장소에 더 이상 없음</translation>
    </message>
    <message>
        <source> (%1 stage)</source>
        <translation> (%1 단계)</translation>
    </message>
    <message>
        <source>%1 is rate-limiting requests%2. The limit should lift in about %3 s (at %4 UTC); try again after that.</source>
        <translation>%1 제공자가 요청 수를 제한하고 있습니다%2. 약 %3초 뒤(UTC %4)에 풀릴 예정이니 그 뒤에 다시 시도하세요.</translation>
    </message>
    <message>
        <source>%1 is rate-limiting requests%2 and did not say for how long; per-minute limits usually lift within a minute. Try again then.</source>
        <translation>%1 제공자가 요청 수를 제한하고 있으며%2 기간은 알려 주지 않았습니다. 분당 제한은 보통 1분 안에 풀리니 그때 다시 시도하세요.</translation>
    </message>
    <message>
        <source>%1's quota or billing is used up%2. Retrying will not help until credit is added or the quota is raised in the provider's console (or a fallback provider is configured).</source>
        <translation>%1 제공자의 할당량 또는 결제 한도가 소진되었습니다%2. 크레딧을 추가하거나 제공자 콘솔에서 할당량을 올리기 전(또는 대체 제공자를 설정하기 전)에는 다시 시도해도 소용없습니다.</translation>
    </message>
    <message>
        <source>%1 failed in a way that is usually temporary (%2)%3. The same request sent again (Retry on the Result view, or Generate) usually succeeds%4.</source>
        <translation>%1 제공자에서 보통 일시적인 실패(%2)가 났습니다%3. 같은 요청을 다시 보내면(결과 화면의 다시 시도, 또는 생성) 대개 성공합니다%4.</translation>
    </message>
    <message>
        <source>; the provider reported overload, so waiting a minute helps</source>
        <translation>. 제공자가 과부하를 알렸으니 1분쯤 기다리면 도움이 됩니다</translation>
    </message>
    <message>
        <source>%1 rejected Bullpen's configuration%2. Check %3 (the key), %4 (the endpoint) and %5 (the model) in Settings or the environment, then run the generation again.</source>
        <translation>%1 제공자가 Bullpen의 설정을 거부했습니다%2. 설정 또는 환경 변수에서 %3(키), %4(엔드포인트), %5(모델)를 확인한 뒤 생성을 다시 실행하세요.</translation>
    </message>
    <message>
        <source>The secure connection to %1 failed%2 (certificate or handshake). Check %3 and the system's certificate store; Bullpen never ignores TLS errors.</source>
        <translation>%1 제공자와의 보안 연결이 실패했습니다%2 (인증서 또는 핸드셰이크). %3 값과 시스템 인증서 저장소를 확인하세요. Bullpen은 TLS 오류를 무시하지 않습니다.</translation>
    </message>
    <message>
        <source>%1 refused this input%2 (safety or content policy). The same input will be refused again: change the story before retrying.</source>
        <translation>%1 제공자가 이 입력을 거부했습니다%2 (안전 또는 콘텐츠 정책). 같은 입력은 다시 거부되니 이야기를 고친 뒤 시도하세요.</translation>
    </message>
    <message>
        <source>%1 rejected the request itself as invalid%2; retrying sends the same request. Check the model in the settings; if it is right, report it with the generation's event log.</source>
        <translation>%1 제공자가 요청 자체를 잘못된 요청으로 거부했습니다%2. 다시 시도해도 같은 요청을 보냅니다. 설정의 모델을 확인하고, 맞다면 생성의 이벤트 로그와 함께 보고하세요.</translation>
    </message>
    <message>
        <source>Cancelled. Retry starts the generation again. A cancelled request may still have been computed and billed by the provider.</source>
        <translation>취소되었습니다. 다시 시도하면 생성을 처음부터 다시 시작합니다. 취소된 요청도 제공자 쪽에서는 계산되고 과금되었을 수 있습니다.</translation>
    </message>
    <message>
        <source>A fault in Bullpen itself%1. Please report it with the generation's event log.</source>
        <translation>Bullpen 자체의 결함입니다%1. 생성의 이벤트 로그와 함께 보고해 주세요.</translation>
    </message>
    <message>
        <source>%1 failed in a way Bullpen does not recognise%2, so it was not treated as temporary. Retry if you believe it was.</source>
        <translation>%1 제공자가 Bullpen이 알지 못하는 방식으로 실패했습니다%2. 그래서 일시적인 실패로 보지 않았습니다. 일시적이라고 판단되면 다시 시도하세요.</translation>
    </message>
    <message>
        <source>The request%2 never reached %1: Bullpen itself was at its limit (its own queue was full, or it was too busy to send before the deadline). The provider is not to blame. Retry when fewer generations are in flight, or raise the in-flight limit (BULLPEN_MAX_IN_FLIGHT) if the provider allows it.</source>
        <translation>요청%2이 제공자 %1에 도달하지 못했습니다: Bullpen 자체가 한도에 걸렸습니다 (자체 대기열이 가득 찼거나 마감 전에 보낼 여유가 없었습니다). 제공자 탓이 아닙니다. 진행 중인 생성이 줄었을 때 다시 시도하거나, 제공자가 허용한다면 동시 진행 한도(BULLPEN_MAX_IN_FLIGHT)를 올리세요.</translation>
    </message>
    <message>
        <source>The engine at %1 could not be reached, so nothing was sent to any provider. Generate again once the status bar says it is connected.</source>
        <translation>엔진 %1에 연결할 수 없어 어떤 제공자에게도 아무것도 보내지 않았습니다. 상태 표시줄에 연결됨이 보이면 다시 생성하세요.</translation>
    </message>
    <message>
        <source>The engine at %1 did not run this generation (the detail says why); it is the engine's answer, not a provider's. Generate again, or read the engine's log.</source>
        <translation>엔진 %1: 이 생성을 실행하지 않았습니다(이유는 세부 내용 참고). 제공자가 아니라 엔진의 응답입니다. 다시 생성하거나 엔진 로그를 읽으세요.</translation>
    </message>
    <message>
        <source>reset by %1</source>
        <translation>초기화(운영자 %1)</translation>
    </message>
    <message>
        <source>reset by %1: %2</source>
        <translation>초기화(운영자 %1): %2</translation>
    </message>
</context>
<context>
    <name>bullpen::RemoteComparisonRunner</name>
    <message>
        <source>the engine did not start the comparison: %1</source>
        <translation>엔진이 비교를 시작하지 않았습니다: %1</translation>
    </message>
</context>
<context>
    <name>bullpen::RemoteConnection</name>
    <message>
        <source>Attached: %1</source>
        <translation>원격 엔진: %1</translation>
    </message>
    <message>
        <source>Attached: %1 — %2</source>
        <translation>원격 엔진: %1 — %2</translation>
    </message>
</context>
<context>
    <name>bullpen::RemoteEngine</name>
    <message>
        <source>connecting to %1</source>
        <translation>%1에 연결하는 중</translation>
    </message>
    <message>
        <source>connected to %1</source>
        <translation>%1에 연결됨</translation>
    </message>
    <message>
        <source>reconnecting to %1 since %2 (%3)</source>
        <translation>%2부터 %1에 다시 연결하는 중 (%3)</translation>
    </message>
    <message>
        <source>refused by %1: %2</source>
        <translation>%1에서 거부됨: %2</translation>
    </message>
    <message>
        <source>the token was refused; connect again with a valid token</source>
        <translation>토큰이 거부되었습니다. 올바른 토큰으로 다시 연결하세요</translation>
    </message>
    <message>
        <source>the engine closed the event stream</source>
        <translation>엔진이 이벤트 스트림을 닫았습니다</translation>
    </message>
    <message>
        <source>the engine at %1 did not start it: %2</source>
        <translation>%1 엔진이 시작하지 않았습니다: %2</translation>
    </message>
    <message>
        <source>the engine at %1 could not be reached: %2</source>
        <translation>%1 엔진에 연결할 수 없습니다: %2</translation>
    </message>
    <message>
        <source>the engine at %1 refused it: %2</source>
        <translation>%1 엔진이 거부했습니다: %2</translation>
    </message>
    <message>
        <source>the engine at %1 has no record of this generation (it may have stopped before writing it)</source>
        <translation>%1 엔진에 이 생성의 기록이 없습니다 (기록하기 전에 멈췄을 수 있습니다)</translation>
    </message>
    <message>
        <source>unreadable result from the engine: %1</source>
        <translation>엔진이 보낸 결과를 읽을 수 없습니다: %1</translation>
    </message>
    <message>
        <source>an event on the stream passed %1 MiB without ending; is %2 a Bullpen engine?</source>
        <translation>스트림의 이벤트 하나가 끝나지 않은 채 %1 MiB를 넘었습니다. %2: Bullpen 엔진이 맞습니까?</translation>
    </message>
    <message>
        <source>%1 waiting for a result: %2 posting, %3 being asked for, %4 to ask once posted</source>
        <translation>결과 대기 %1건: 전송 중 %2건, 조회 중 %3건, 전송 후 조회할 %4건</translation>
    </message>
</context>
<context>
    <name>bullpen::RemoteStoreWatch</name>
    <message>
        <source>The engine at %1: %2</source>
        <translation>%1 엔진: %2</translation>
    </message>
    <message>
        <source>The engine at %1 reaches its store again</source>
        <translation>%1 엔진이 다시 저장소에 연결되었습니다</translation>
    </message>
</context>
<context>
    <name>bullpen::ReplayScenario</name>
    <message>
        <source>a provider-side timeout (%1) is played as a hang until our deadline</source>
        <translation>제공자 쪽 시간 초과(%1)는 우리 마감까지 응답 없음으로 재현합니다</translation>
    </message>
    <message>
        <source>played as %1 output (the record keeps the kind, not the bytes)</source>
        <translation>%1 출력으로 재현합니다(기록에는 종류만 있고 바이트는 없습니다)</translation>
    </message>
    <message>
        <source>the stream is cut after the simulator's own first events (events received are not recorded)</source>
        <translation>시뮬레이터 자체의 첫 이벤트 뒤에 스트림을 끊습니다(받은 이벤트는 기록되지 않습니다)</translation>
    </message>
    <message>
        <source>played as a connection reset after %1 ms</source>
        <translation>%1밀리초 뒤 연결 재설정으로 재현합니다</translation>
    </message>
    <message>
        <source>a TLS failure cannot be played by the plain-HTTP simulator; played as a connection reset</source>
        <translation>TLS 실패는 평문 HTTP 시뮬레이터로 재현할 수 없어 연결 재설정으로 재현합니다</translation>
    </message>
    <message>
        <source>%1 is not a provider behaviour the simulator plays; played as a server error</source>
        <translation>시뮬레이터가 재현하지 않는 제공자 동작(%1)이므로 서버 오류로 재현합니다</translation>
    </message>
    <message>
        <source>attempt %1 (%2): never reached the provider (%3); nothing to play</source>
        <translation>시도 %1 (%2): 제공자에 닿지 않았습니다(%3). 재현할 것이 없습니다</translation>
    </message>
    <message>
        <source>attempt %1 (%2): ended by Bullpen, not by the provider; played as a hang</source>
        <translation>시도 %1 (%2): 제공자가 아니라 Bullpen이 끝냈습니다. 응답 없음으로 재현합니다</translation>
    </message>
    <message>
        <source>the simulator draws its own comic, in its own time</source>
        <translation>시뮬레이터가 자체 만화를 자체 시간에 그립니다</translation>
    </message>
    <message>
        <source>attempt %1 (%2): %3</source>
        <translation>시도 %1 (%2): %3</translation>
    </message>
    <message>
        <source>no generation %1 in the history</source>
        <translation>기록에 없는 생성: %1</translation>
    </message>
    <message>
        <source>generation %1 is still running; replay it once it has ended</source>
        <translation>생성 %1: 아직 실행 중입니다. 끝난 뒤 재현하십시오</translation>
    </message>
    <message>
        <source>an error inside the stream is played as the simulator's overload event</source>
        <translation>스트림 안의 오류는 시뮬레이터의 과부하 이벤트로 재현합니다</translation>
    </message>
    <message>
        <source>primary</source>
        <translation>기본</translation>
    </message>
    <message>
        <source>fallback</source>
        <translation>대체</translation>
    </message>
    <message>
        <source>storyboard</source>
        <translation>스토리보드</translation>
    </message>
    <message>
        <source>image</source>
        <translation>이미지</translation>
    </message>
    <message>
        <source>captions</source>
        <translation>캡션</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>성공</translation>
    </message>
</context>
<context>
    <name>bullpen::ReplayVerdict</name>
    <message>
        <source>applied (%1)</source>
        <translation>적용됨(%1)</translation>
    </message>
    <message>
        <source>tried and failed (%1)</source>
        <translation>시도했으나 실패(%1)</translation>
    </message>
    <message>
        <source>outcome: recorded %1, replayed %2</source>
        <translation>결과: 기록 %1, 재현 %2</translation>
    </message>
    <message>
        <source>fallback decision: recorded %1, replayed %2</source>
        <translation>대체 결정: 기록 %1, 재현 %2</translation>
    </message>
    <message>
        <source>attempt %1: only in the replay (%2)</source>
        <translation>시도 %1: 재현에만 있음(%2)</translation>
    </message>
    <message>
        <source>attempt %1: only recorded (%2)</source>
        <translation>시도 %1: 기록에만 있음(%2)</translation>
    </message>
    <message>
        <source>attempt %1: recorded %2, replayed %3</source>
        <translation>시도 %1: 기록 %2, 재현 %3</translation>
    </message>
    <message>
        <source>attempt %1 (%2): %3 ms recorded, %4 ms replayed (tolerance %5 ms)</source>
        <translation>시도 %1 (%2): 기록 %3밀리초, 재현 %4밀리초 (허용 오차 %5밀리초)</translation>
    </message>
    <message>
        <source>reproduced: %1, %2 attempt(s) alike</source>
        <translation>재현됨: %1, 시도 %2건 동일</translation>
    </message>
    <message>
        <source>differs: %1</source>
        <translation>다름: %1</translation>
    </message>
    <message>
        <source>with these settings: %1 instead of %2</source>
        <translation>이 설정이라면: %2 대신 %1</translation>
    </message>
    <message>
        <source>  scale: %1 across %2 columns
</source>
        <translation>  눈금: %2칸에 %1
</translation>
    </message>
    <message>
        <source>%1 by the fallback (%2) at %3</source>
        <translation>%3에 대체 제공자로 %1(%2)</translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <translation>%2에 %1</translation>
    </message>
    <message>
        <source>attempt %1 (%2): first byte at %3 ms recorded, %4 ms replayed (tolerance %5 ms)</source>
        <translation>시도 %1 (%2): 첫 바이트 기록 %3밀리초, 재현 %4밀리초(허용 오차 %5밀리초)</translation>
    </message>
    <message>
        <source>attempt %1 (%2): an answer began on one side only</source>
        <translation>시도 %1 (%2): 한쪽에서만 응답이 시작되었습니다</translation>
    </message>
    <message>
        <source>attempt %1 (%2): the stream ended after %3 events recorded, %4 replayed</source>
        <translation>시도 %1 (%2): 스트림이 기록에서는 이벤트 %3개, 재현에서는 %4개 뒤에 끝났습니다</translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation>성공</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>실패</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>취소됨</translation>
    </message>
    <message>
        <source>abandoned</source>
        <translation>중단됨(엔진 사라짐)</translation>
    </message>
</context>
<context>
    <name>bullpen::secrets</name>
    <message>
        <source>no D-Bus session bus here (DBUS_SESSION_BUS_ADDRESS is not set)</source>
        <translation>이곳에는 D-Bus 세션 버스가 없음(DBUS_SESSION_BUS_ADDRESS가 설정되지 않음)</translation>
    </message>
    <message>
        <source>the Secret Service did not answer within %1 ms (locked?)</source>
        <translation>Secret Service가 %1밀리초 안에 응답하지 않음(잠겨 있나요?)</translation>
    </message>
    <message>
        <source>no Secret Service answers on this session bus (%1)</source>
        <translation>이 세션 버스에서 응답하는 Secret Service가 없음(%1)</translation>
    </message>
    <message>
        <source>this build has no keychain support (QtKeychain)</source>
        <translation>이 빌드에는 키체인 지원(QtKeychain)이 없음</translation>
    </message>
</context>
<context>
    <name>bullpen::units</name>
    <message>
        <source>%1 ms</source>
        <translation>%1밀리초</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1초</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1분 %2초</translation>
    </message>
</context>
</TS>