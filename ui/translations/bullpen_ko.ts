<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="ko_KR">
<context>
    <name>bullpen::AlertListModel</name>
    <message>
        <source>pending</source>
        <translation>대기 중</translation>
    </message>
    <message>
        <source>FIRING</source>
        <translation>발생 중</translation>
    </message>
    <message>
        <source>resolved</source>
        <translation>해소됨</translation>
    </message>
    <message>
        <source>Alert</source>
        <translation>경보</translation>
    </message>
    <message>
        <source>Of</source>
        <translation>대상</translation>
    </message>
    <message>
        <source>State</source>
        <translation>상태</translation>
    </message>
    <message>
        <source>Since</source>
        <translation>시작 시각</translation>
    </message>
    <message>
        <source>Fired</source>
        <translation>발생 시각</translation>
    </message>
    <message>
        <source>Resolved</source>
        <translation>해소 시각</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>값</translation>
    </message>
    <message>
        <source>Runbook: %1</source>
        <translation>대응 절차: %1</translation>
    </message>
    <message>
        <source>Silenced until</source>
        <translation>무음 끝 시각</translation>
    </message>
</context>
<context>
    <name>bullpen::AnnotationModel</name>
    <message>
        <source>Drains</source>
        <translation>제외</translation>
    </message>
    <message>
        <source>Restores</source>
        <translation>복원</translation>
    </message>
    <message>
        <source>Breakers</source>
        <translation>차단기</translation>
    </message>
    <message>
        <source>Alerts</source>
        <translation>경보</translation>
    </message>
    <message>
        <source>When</source>
        <translation>시각</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>종류</translation>
    </message>
    <message>
        <source>What</source>
        <translation>동작</translation>
    </message>
    <message>
        <source>Who</source>
        <translation>누가</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>이유</translation>
    </message>
    <message>
        <source>Markers</source>
        <translation>표시</translation>
    </message>
    <message>
        <source>Which events the chart marks: drains, restores, breaker transitions, alerts</source>
        <translation>차트에 표시할 사건: 제외, 복원, 차단기 상태 변화, 경보</translation>
    </message>
    <message>
        <source>the engine's rules</source>
        <translation>엔진의 규칙</translation>
    </message>
    <message>
        <source>value %1, %2</source>
        <translation>값 %1, 심각도 %2</translation>
    </message>
    <message>
        <source>alert firing: %1</source>
        <translation>경보 발생: %1</translation>
    </message>
    <message>
        <source>alert resolved: %1</source>
        <translation>경보 해소: %1</translation>
    </message>
    <message>
        <source>who: %1</source>
        <translation>누가: %1</translation>
    </message>
    <message>
        <source>why: %1</source>
        <translation>이유: %1</translation>
    </message>
</context>
<context>
    <name>bullpen::AuditLogModel</name>
    <message>
        <source>started a generation</source>
        <translation>생성 시작</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>취소됨</translation>
    </message>
    <message>
        <source>started a comparison</source>
        <translation>비교 시작</translation>
    </message>
    <message>
        <source>drained</source>
        <translation>제외</translation>
    </message>
    <message>
        <source>restored</source>
        <translation>복원</translation>
    </message>
    <message>
        <source>reset a breaker</source>
        <translation>차단기 초기화</translation>
    </message>
    <message>
        <source>added a token</source>
        <translation>토큰 추가</translation>
    </message>
    <message>
        <source>revoked a token</source>
        <translation>토큰 폐기</translation>
    </message>
    <message>
        <source>When</source>
        <translation>시각</translation>
    </message>
    <message>
        <source>Who</source>
        <translation>누가</translation>
    </message>
    <message>
        <source>What</source>
        <translation>동작</translation>
    </message>
    <message>
        <source>On what</source>
        <translation>대상</translation>
    </message>
    <message>
        <source>Instance</source>
        <translation>인스턴스</translation>
    </message>
    <message>
        <source>this console</source>
        <translation>이 콘솔</translation>
    </message>
    <message>
        <source>opened the breaker of</source>
        <translation>차단기 열림:</translation>
    </message>
    <message>
        <source>half-opened the breaker of</source>
        <translation>차단기 반열림:</translation>
    </message>
    <message>
        <source>closed the breaker of</source>
        <translation>차단기 닫힘:</translation>
    </message>
    <message>
        <source>ended the expired drain of</source>
        <translation>기한이 끝난 제외 종료:</translation>
    </message>
</context>
<context>
    <name>bullpen::BreakerListModel</name>
    <message>
        <source>OPEN</source>
        <translation>열림</translation>
    </message>
    <message>
        <source>HALF-OPEN</source>
        <translation>반열림</translation>
    </message>
    <message>
        <source>closed</source>
        <translation>닫힘</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>제공자</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>역할</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>단계</translation>
    </message>
    <message>
        <source>State</source>
        <translation>상태</translation>
    </message>
    <message>
        <source>Since</source>
        <translation>시작 시각</translation>
    </message>
    <message>
        <source>Failed in window</source>
        <translation>구간 내 실패</translation>
    </message>
    <message>
        <source>Next trial</source>
        <translation>다음 시험 요청</translation>
    </message>
    <message>
        <source>Opened</source>
        <translation>열린 횟수</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>이유</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%2건 중 %1건</translation>
    </message>
    <message>
        <source>trial in flight</source>
        <translation>시험 요청 진행 중</translation>
    </message>
    <message>
        <source>%1 (in %2)</source>
        <translation>%1 (남은 시간: %2)</translation>
    </message>
</context>
<context>
    <name>bullpen::CompareModel</name>
    <message>
        <source>Characters: %1</source>
        <translation>등장인물: %1</translation>
    </message>
    <message>
        <source>Primary: %1</source>
        <translation>기본: %1</translation>
    </message>
    <message>
        <source>Fallback: %1</source>
        <translation>대체: %1</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>제목</translation>
    </message>
    <message>
        <source>Captions</source>
        <translation>캡션</translation>
    </message>
    <message>
        <source>Panel %1
%2</source>
        <translation>%1컷
%2</translation>
    </message>
</context>
<context>
    <name>bullpen::CompareView</name>
    <message>
        <source>Compare the Run view's story</source>
        <translation>실행 화면의 이야기 비교</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Past comparisons are kept in the store; click one to reopen it.</source>
        <translation>지난 비교는 저장소에 보관됩니다. 클릭하면 다시 엽니다.</translation>
    </message>
    <message>
        <source>Without a store, comparisons are shown but not kept.</source>
        <translation>저장소가 없으면 비교는 표시만 되고 보관되지 않습니다.</translation>
    </message>
    <message>
        <source>Comparing: both providers are running…</source>
        <translation>비교 중: 두 제공자가 실행 중입니다…</translation>
    </message>
    <message>
        <source>Primary</source>
        <translation>기본</translation>
    </message>
    <message>
        <source>Fallback</source>
        <translation>대체 제공자</translation>
    </message>
    <message>
        <source>running… (timeout %1)</source>
        <translation>실행 중… (제한 시간 %1)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Validation&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;검증&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Storyboard&lt;/b&gt; %1 of %2 · &lt;b&gt;whole generation&lt;/b&gt; %3</source>
        <translation>&lt;b&gt;스토리보드&lt;/b&gt; %1 / %2 · &lt;b&gt;전체 생성&lt;/b&gt; %3</translation>
    </message>
    <message>
        <source>&lt;b&gt;Tokens&lt;/b&gt; in %1 · out %2</source>
        <translation>&lt;b&gt;토큰&lt;/b&gt; 입력 %1 · 출력 %2</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>없음</translation>
    </message>
    <message>
        <source>&lt;i&gt;%1&lt;/i&gt;</source>
        <translation>&lt;i&gt;%1&lt;/i&gt;</translation>
    </message>
    <message>
        <source>&lt;i&gt;Storyboard text not stored (Settings → store prompts and responses is off).&lt;/i&gt;</source>
        <translation>&lt;i&gt;스토리보드 본문은 저장되지 않았습니다 (설정 → 프롬프트와 응답 저장이 꺼져 있음).&lt;/i&gt;</translation>
    </message>
    <message>
        <source>(image not on disk)</source>
        <translation>(이미지가 디스크에 없음)</translation>
    </message>
    <message>
        <source>No comparison yet: write a story in the Run view, then Compare.</source>
        <translation>아직 비교가 없습니다. 실행 화면에서 이야기를 쓰고 비교를 누르세요.</translation>
    </message>
    <message>
        <source>Compared %1 and %2.</source>
        <translation>두 제공자를 비교했습니다: %1, %2.</translation>
    </message>
    <message>
        <source>%1 of %2 words differ between the two storyboards (highlighted).</source>
        <translation>두 스토리보드의 단어 %2개 중 %1개가 다릅니다 (강조 표시).</translation>
    </message>
    <message>
        <source>Nothing to compare word by word yet: a side has no storyboard.</source>
        <translation>아직 단어별로 비교할 것이 없습니다. 한쪽에 스토리보드가 없습니다.</translation>
    </message>
    <message>
        <source>&lt;span style="color:%1"&gt;succeeded&lt;/span&gt;</source>
        <translation>&lt;span style="color:%1"&gt;성공&lt;/span&gt;</translation>
    </message>
    <message>
        <source>&lt;span style="color:%1"&gt;%2&lt;/span&gt; %3 (%4)</source>
        <translation>&lt;span style="color:%1"&gt;%2&lt;/span&gt; %3 (%4)</translation>
    </message>
    <message>
        <source>Runs the story on the primary and on the fallback provider at once, each alone (no fallback), each under its own timeout from the Run view</source>
        <translation>이야기를 기본 제공자와 대체 제공자에서 동시에, 각각 단독으로(대체 없이), 실행 화면의 각자 제한 시간으로 실행합니다</translation>
    </message>
    <message>
        <source>valid (four panels in order; docs/contract.md §2.1)</source>
        <translation>유효 (네 칸이 순서대로; docs/contract.md §2.1)</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;not compared yet</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;아직 비교하지 않음</translation>
    </message>
    <message>
        <source>&lt;b&gt;Cost&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;비용&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Cost&lt;/b&gt; %1 (attempts of unknown cost: %2)</source>
        <translation>&lt;b&gt;비용&lt;/b&gt; %1 (비용을 알 수 없는 시도: %2)</translation>
    </message>
    <message>
        <source>no storyboard to check</source>
        <translation>확인할 스토리보드 없음</translation>
    </message>
</context>
<context>
    <name>bullpen::ComparisonListModel</name>
    <message>
        <source>%1 running…</source>
        <translation>%1 실행 중…</translation>
    </message>
    <message>
        <source>running</source>
        <translation>실행 중</translation>
    </message>
    <message>
        <source>both valid</source>
        <translation>둘 다 유효</translation>
    </message>
    <message>
        <source>both failed</source>
        <translation>둘 다 실패</translation>
    </message>
    <message>
        <source>fallback failed</source>
        <translation>대체 실패</translation>
    </message>
    <message>
        <source>primary failed</source>
        <translation>기본 실패</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>시각</translation>
    </message>
    <message>
        <source>Primary</source>
        <translation>기본</translation>
    </message>
    <message>
        <source>Fallback</source>
        <translation>대체 제공자</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>결과</translation>
    </message>
    <message>
        <source>%1 ok, %2</source>
        <translation>%1 성공, %2</translation>
    </message>
    <message>
        <source>%1 %2, %3</source>
        <translation>%1 %2, %3</translation>
    </message>
</context>
<context>
    <name>bullpen::ControlView</name>
    <message>
        <source>every role</source>
        <translation>모든 역할</translation>
    </message>
    <message>
        <source>every stage</source>
        <translation>모든 단계</translation>
    </message>
    <message>
        <source>until restored</source>
        <translation>복원할 때까지</translation>
    </message>
    <message>
        <source>ending</source>
        <translation>곧 끝남</translation>
    </message>
    <message>
        <source>Active drains</source>
        <translation>진행 중인 제외</translation>
    </message>
    <message>
        <source>Drain…</source>
        <translation>제외…</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>복원</translation>
    </message>
    <message>
        <source>Ends the selected drain (a drain of every role or stage ends every drain of the provider)</source>
        <translation>선택한 제외를 끝냅니다(모든 역할이나 단계의 제외라면 그 제공자의 모든 제외를 끝냅니다)</translation>
    </message>
    <message>
        <source>Breakers (this engine)</source>
        <translation>차단기(이 엔진)</translation>
    </message>
    <message>
        <source>Reset breaker…</source>
        <translation>차단기 초기화…</translation>
    </message>
    <message>
        <source>Closes the selected breaker now; its next opening starts from the first cooldown. Audited.</source>
        <translation>선택한 차단기를 지금 닫습니다. 다음에 열리면 첫 대기 시간부터 다시 시작합니다. 감사 기록에 남습니다.</translation>
    </message>
    <message>
        <source>A breaker appears once its provider, role and stage have had an attempt.</source>
        <translation>차단기는 그 제공자·역할·단계에 시도가 한 번 있은 뒤에 나타납니다.</translation>
    </message>
    <message>
        <source>Audit trail</source>
        <translation>감사 기록</translation>
    </message>
    <message>
        <source>Filter: who, what, provider…</source>
        <translation>필터: 누가, 무엇을, 제공자…</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>내보내기…</translation>
    </message>
    <message>
        <source>Writes the rows the filter shows as CSV or JSON</source>
        <translation>필터에 보이는 행을 CSV 또는 JSON으로 씁니다</translation>
    </message>
    <message>
        <source>Drain the provider picked beside it: the same dialog as a health card's menu</source>
        <translation>옆에서 고른 제공자를 제외합니다. 상태 카드 메뉴와 같은 대화 상자입니다</translation>
    </message>
    <message>
        <source>The engine is not reachable; nothing can be drained until it is back</source>
        <translation>엔진에 연결할 수 없습니다. 다시 연결될 때까지 아무것도 제외할 수 없습니다</translation>
    </message>
    <message>
        <source>Reset breaker</source>
        <translation>차단기 초기화</translation>
    </message>
    <message>
        <source>Close the breaker of %1 as %2 at the %3 stage now? Requests go to it again at once; if it still fails, it opens again with the first cooldown.</source>
        <translation>%3 단계의 %2 제공자 %1 차단기를 지금 닫을까요? 요청이 곧바로 다시 갑니다. 계속 실패하면 첫 대기 시간으로 다시 열립니다.</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>초기화</translation>
    </message>
    <message>
        <source>Could not write %1: %2. Choose another folder.</source>
        <translation>쓸 수 없음: %1 (%2). 다른 폴더를 고르세요.</translation>
    </message>
    <message>
        <source>Export the audit trail</source>
        <translation>감사 기록 내보내기</translation>
    </message>
    <message>
        <source>CSV (*.csv);;JSON (*.json)</source>
        <translation>CSV 파일 (*.csv);;JSON 파일 (*.json)</translation>
    </message>
    <message>
        <source>Exported to %1</source>
        <translation>내보낸 곳: %1</translation>
    </message>
    <message>
        <source>Alerts (the shipped rules, evaluated by the engine)</source>
        <translation>경보(함께 제공되는 규칙, 엔진이 평가)</translation>
    </message>
    <message>
        <source>Silence…</source>
        <translation>무음…</translation>
    </message>
    <message>
        <source>Acknowledge the selected alert: no notification for its rule for a while. Audited.</source>
        <translation>선택한 경보를 확인합니다. 그 규칙의 알림을 한동안 띄우지 않습니다. 감사 기록에 남습니다.</translation>
    </message>
    <message>
        <source>End silence</source>
        <translation>무음 해제</translation>
    </message>
    <message>
        <source>Probes</source>
        <translation>프로브</translation>
    </message>
    <message>
        <source>This engine's probes: one minimal synthetic request to each provider, role and stage that had no traffic for the whole interval</source>
        <translation>이 엔진의 프로브: 간격 내내 트래픽이 없던 제공자·역할·단계마다 최소 합성 요청 하나</translation>
    </message>
    <message>
        <source>No prober runs here: this engine was started without --probe-every.</source>
        <translation>여기서는 프로버가 실행되지 않습니다. 이 엔진은 --probe-every 없이 시작되었습니다.</translation>
    </message>
    <message>
        <source>No prober runs here: an embedded console sends no probes. A bullpen-engine started with --probe-every does, and shows them here when attached.</source>
        <translation>여기서는 프로버가 실행되지 않습니다. 내장 콘솔은 프로브를 보내지 않습니다. --probe-every로 시작한 bullpen-engine은 프로브를 보내며, 연결하면 여기에 표시됩니다.</translation>
    </message>
    <message>
        <source>Another engine on the store holds the probers' lock and probes now; this engine's prober waits.</source>
        <translation>저장소의 다른 엔진이 프로버 잠금을 잡고 지금 프로브 중입니다. 이 엔진의 프로버는 기다립니다.</translation>
    </message>
</context>
<context>
    <name>bullpen::DesktopNotifier</name>
    <message>
        <source>there is no session bus</source>
        <translation>세션 버스가 없음</translation>
    </message>
    <message>
        <source>no notification service runs on this desktop</source>
        <translation>이 데스크톱에서 실행 중인 알림 서비스가 없음</translation>
    </message>
    <message>
        <source>Alert firing: %1</source>
        <translation>경보 발생: %1</translation>
    </message>
    <message>
        <source>Alert firing: %1 (%2)</source>
        <translation>경보 발생: %1 (%2)</translation>
    </message>
    <message>
        <source>Severity: %1. Open the Control view to silence it or to act.</source>
        <translation>심각도: %1. 제어 화면을 열어 무음 처리하거나 조치하세요.</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>열기</translation>
    </message>
</context>
<context>
    <name>bullpen::DrainDialog</name>
    <message>
        <source>Drain %1</source>
        <translation>제공자 %1 제외</translation>
    </message>
    <message>
        <source>Only %1 as %2 at the %3 stage</source>
        <translation>%3 단계의 %2 제공자 %1만</translation>
    </message>
    <message>
        <source>Only %1 as %2, at every stage</source>
        <translation>모든 단계의 %2 제공자 %1만</translation>
    </message>
    <message>
        <source>%1 in every role and at every stage</source>
        <translation>모든 역할·모든 단계의 제공자 %1</translation>
    </message>
    <message>
        <source>e.g. 503s since 03:10, ticket 4711</source>
        <translation>예: 03:10부터 503 응답, 티켓 4711</translation>
    </message>
    <message>
        <source>until restored</source>
        <translation>복원할 때까지</translation>
    </message>
    <message>
        <source>Drain</source>
        <translation>제외</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>이유</translation>
    </message>
    <message>
        <source>How long</source>
        <translation>기간</translation>
    </message>
    <message>
        <source>Requests of the %1 stage go straight to its fallback, with the whole budget, instead of %2. If the stage has no usable fallback, %2 is still called. Every other stage and role of %2 is unchanged.</source>
        <translation>%1 단계의 요청은 제공자 %2 대신 전체 예산을 가지고 바로 대체 제공자로 갑니다. 그 단계에 쓸 수 있는 대체 제공자가 없으면 제공자 %2 호출은 그대로입니다. 제공자 %2의 다른 단계와 역할은 바뀌지 않습니다.</translation>
    </message>
    <message>
        <source>%1 is not used as the fallback of the %2 stage; a failing primary there fails without a fallback. Every other stage and role of %1 is unchanged.</source>
        <translation>%2 단계에서 제공자 %1의 대체 호출을 하지 않습니다. 그 단계의 기본 제공자가 실패하면 대체 호출 없이 실패합니다. 제공자 %1의 다른 단계와 역할은 바뀌지 않습니다.</translation>
    </message>
    <message>
        <source>Every stage with %1 as its primary goes straight to its fallback, with the whole budget; stages with no usable fallback still call %1, and %1 is not used as anyone's fallback.</source>
        <translation>기본 제공자가 %1인 모든 단계는 전체 예산을 가지고 바로 대체 제공자로 갑니다. 쓸 수 있는 대체 제공자가 없는 단계는 제공자 %1 호출을 계속하며, 제공자 %1의 대체 호출은 하지 않습니다.</translation>
    </message>
    <message>
        <source>It ends by itself at %1, or when restored.</source>
        <translation>%1에 저절로 끝나거나, 복원하면 끝납니다.</translation>
    </message>
    <message>
        <source>It lasts until someone restores it.</source>
        <translation>누군가 복원할 때까지 계속됩니다.</translation>
    </message>
    <message>
        <source>Say why first: the audit and the other operators read it</source>
        <translation>먼저 이유를 적으세요. 감사 기록과 다른 운영자가 읽습니다</translation>
    </message>
    <message>
        <source>Applies to</source>
        <translation>대상</translation>
    </message>
    <message>
        <source>for 15 minutes</source>
        <translation>15분 동안</translation>
    </message>
    <message>
        <source>for 1 hour</source>
        <translation>1시간 동안</translation>
    </message>
    <message>
        <source>for 4 hours</source>
        <translation>4시간 동안</translation>
    </message>
</context>
<context>
    <name>bullpen::DrainListModel</name>
    <message>
        <source>Provider</source>
        <translation>제공자</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>역할</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>단계</translation>
    </message>
    <message>
        <source>By</source>
        <translation>누가</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>이유</translation>
    </message>
    <message>
        <source>Since</source>
        <translation>시작 시각</translation>
    </message>
    <message>
        <source>Until</source>
        <translation>끝 시각</translation>
    </message>
    <message>
        <source>Remaining</source>
        <translation>남은 시간</translation>
    </message>
    <message>
        <source>this console</source>
        <translation>이 콘솔</translation>
    </message>
    <message>
        <source>until restored</source>
        <translation>복원할 때까지</translation>
    </message>
</context>
<context>
    <name>bullpen::EngineConfigView</name>
    <message>
        <source>Waiting for the engine's configuration…</source>
        <translation>엔진 설정을 기다리는 중…</translation>
    </message>
    <message>
        <source>Setting</source>
        <translation>설정</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>값</translation>
    </message>
    <message>
        <source>The running configuration of engine %1 (version %2), read-only. It is changed where the engine runs (its settings file, key file or environment), and the provider keys stay there: only where each comes from and its last four characters are shown.</source>
        <translation>엔진 %1(버전 %2)의 실행 중 설정입니다(읽기 전용). 설정은 엔진이 실행되는 곳(설정 파일, 키 파일, 환경 변수)에서 바꿉니다. 제공자 키는 그곳에 남으며, 출처와 마지막 네 글자만 표시됩니다.</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>예</translation>
    </message>
    <message>
        <source>no</source>
        <translation>아니요</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
</context>
<context>
    <name>bullpen::EventLogModel</name>
    <message>
        <source>none</source>
        <translation>없음</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>성공</translation>
    </message>
    <message>
        <source> (HTTP %1)</source>
        <translation> (HTTP %1)</translation>
    </message>
    <message>
        <source>, aborted: %1</source>
        <translation>, 중단: %1</translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation>성공</translation>
    </message>
    <message>
        <source>%1 at %2: %3 (%4)</source>
        <translation>%2 단계에서 %1: %3 (%4)</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>시각</translation>
    </message>
    <message>
        <source>Generation</source>
        <translation>생성</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>이벤트</translation>
    </message>
    <message>
        <source>What happened</source>
        <translation>내용</translation>
    </message>
    <message>
        <source>%1 has %2 of %3 attempts in flight: queued behind %4; the budget has not started</source>
        <translation>%1의 진행 중 시도가 %3개 중 %2개입니다: %4개 뒤에서 대기 중이며 예산은 아직 시작되지 않았습니다</translation>
    </message>
    <message>
        <source>succeeded with fallback</source>
        <translation>대체 제공자 응답으로 성공</translation>
    </message>
    <message>
        <source>%1 policy, %2 → %3, budget %4</source>
        <translation>%1 정책, %2 → %3, 예산 %4</translation>
    </message>
    <message>
        <source>%1 admitted after waiting %2; the budget starts now</source>
        <translation>%1: %2 대기 후 시작 허가, 지금 예산이 시작됩니다</translation>
    </message>
    <message>
        <source>%1 %2 (%3), round %4, deadline at %5</source>
        <translation>%1 %2 (%3), %4회차, 마감 %5</translation>
    </message>
    <message>
        <source>%1 %2 %3 in %4</source>
        <translation>%1 %2 %3, %4</translation>
    </message>
    <message>
        <source>%1 → %2 on %3, %4 of budget left (%5)</source>
        <translation>%3 때문에 %1 → %2, 남은 예산 %4 (%5)</translation>
    </message>
    <message>
        <source>%1 skipped (%2): %3; %4 gets the stage with %5 of budget</source>
        <translation>제공자 %1 건너뜀(%2): %3. 제공자 %4 응답으로 진행, 예산 %5</translation>
    </message>
    <message>
        <source>%1 again after %2 (%3), round %4</source>
        <translation>%2 후 %1 재시도 (%3), %4회차</translation>
    </message>
    <message>
        <source>%1 %2 answered %3 after its deadline; refused</source>
        <translation>%1 %2: 마감 %3 후에 응답함. 거부됨</translation>
    </message>
    <message>
        <source>%1 policy, %2 → %3 (budget not recorded)</source>
        <translation>%1 정책, %2 → %3 (예산 기록 없음)</translation>
    </message>
    <message>
        <source>%1 %2 (%3), round %4</source>
        <translation>%1 %2 (%3), %4회차</translation>
    </message>
    <message>
        <source>%1 → %2 on %3 (%4)</source>
        <translation>%3 때문에 %1 → %2 (%4)</translation>
    </message>
</context>
<context>
    <name>bullpen::FailureHistoryModel</name>
    <message>
        <source>(none)</source>
        <translation>(없음)</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>시각</translation>
    </message>
    <message>
        <source>User</source>
        <translation>사용자</translation>
    </message>
    <message>
        <source>Generation</source>
        <translation>생성</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>단계</translation>
    </message>
    <message>
        <source>Public code</source>
        <translation>공개 코드</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>종류</translation>
    </message>
    <message>
        <source>Providers</source>
        <translation>제공자</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>소요 시간</translation>
    </message>
    <message>
        <source>Instance</source>
        <translation>인스턴스</translation>
    </message>
    <message>
        <source>Select the row to see the full id in the detail pane (Copy id copies it)</source>
        <translation>행을 선택하면 상세 창에 전체 ID가 보입니다 (ID 복사로 복사)</translation>
    </message>
    <message>
        <source>(fallback)</source>
        <translation>(대체 제공자 응답)</translation>
    </message>
</context>
<context>
    <name>bullpen::FailuresView</name>
    <message>
        <source>Last hour</source>
        <translation>최근 1시간</translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation>최근 24시간</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>최근 7일</translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation>최근 30일</translation>
    </message>
    <message>
        <source>All time</source>
        <translation>전체 기간</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>실패</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>취소됨</translation>
    </message>
    <message>
        <source>All generations</source>
        <translation>모든 생성</translation>
    </message>
    <message>
        <source>Any public code</source>
        <translation>모든 공개 코드</translation>
    </message>
    <message>
        <source>Any kind</source>
        <translation>모든 종류</translation>
    </message>
    <message>
        <source>Any stage</source>
        <translation>모든 단계</translation>
    </message>
    <message>
        <source>Any provider</source>
        <translation>모든 제공자</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>내보내기…</translation>
    </message>
    <message>
        <source>Export what the filter selects, masked as on screen</source>
        <translation>필터가 고른 항목을 화면과 같이 마스킹하여 내보냅니다</translation>
    </message>
    <message>
        <source>Count by public code</source>
        <translation>공개 코드별 건수</translation>
    </message>
    <message>
        <source>Count by kind</source>
        <translation>종류별 건수</translation>
    </message>
    <message>
        <source>Fallback rate over time</source>
        <translation>시간대별 대체 비율</translation>
    </message>
    <message>
        <source>Select a generation to see its attempts.</source>
        <translation>생성을 선택하면 시도 내역이 보입니다.</translation>
    </message>
    <message>
        <source>History is off: Bullpen was started without a store (--no-store).</source>
        <translation>기록이 꺼져 있습니다. Bullpen이 저장소 없이 시작되었습니다 (--no-store).</translation>
    </message>
    <message>
        <source>Counting…</source>
        <translation>집계 중…</translation>
    </message>
    <message>
        <source>No generations match</source>
        <translation>일치하는 생성이 없습니다</translation>
    </message>
    <message>
        <source>fallback rate</source>
        <translation>대체 비율</translation>
    </message>
    <message>
        <source>This generation is no longer in the store.</source>
        <translation>이 생성은 더 이상 저장소에 없습니다.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Generation&lt;/b&gt; &lt;code&gt;%1&lt;/code&gt;</source>
        <translation>&lt;b&gt;생성&lt;/b&gt; &lt;code&gt;%1&lt;/code&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;User&lt;/b&gt; %1 · &lt;b&gt;started&lt;/b&gt; %2 · &lt;b&gt;took&lt;/b&gt; %3</source>
        <translation>&lt;b&gt;사용자&lt;/b&gt; %1 · &lt;b&gt;시작&lt;/b&gt; %2 · &lt;b&gt;소요&lt;/b&gt; %3</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(없음)</translation>
    </message>
    <message>
        <source>&lt;b&gt;State&lt;/b&gt; %1 · &lt;b&gt;policy&lt;/b&gt; %2 · &lt;b&gt;providers&lt;/b&gt; %3</source>
        <translation>&lt;b&gt;상태&lt;/b&gt; %1 · &lt;b&gt;정책&lt;/b&gt; %2 · &lt;b&gt;제공자&lt;/b&gt; %3</translation>
    </message>
    <message>
        <source>&lt;b&gt;Failed at&lt;/b&gt; %1 with &lt;b&gt;%2&lt;/b&gt; (%3): %4</source>
        <translation>&lt;b&gt;실패 단계&lt;/b&gt; %1, &lt;b&gt;%2&lt;/b&gt; (%3): %4</translation>
    </message>
    <message>
        <source>&lt;b&gt;Decision&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;판단&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>&lt;i&gt;Timeline rebuilt from the attempt records: this generation's event log is not in the store.&lt;/i&gt;</source>
        <translation>&lt;i&gt;시도 기록으로 다시 그린 타임라인입니다. 이 생성의 이벤트 로그는 저장소에 없습니다.&lt;/i&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;What to do next&lt;/b&gt;&lt;br&gt;%1</source>
        <translation>&lt;b&gt;다음에 할 일&lt;/b&gt;&lt;br&gt;%1</translation>
    </message>
    <message>
        <source>CSV…</source>
        <translation>CSV…</translation>
    </message>
    <message>
        <source>JSON Lines…</source>
        <translation>JSON Lines…</translation>
    </message>
    <message>
        <source>Export history</source>
        <translation>기록 내보내기</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl)</source>
        <translation>JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <source>Exporting to %1…</source>
        <translation>내보내는 중: %1…</translation>
    </message>
    <message>
        <source>Export failed: %1. Choose another file or free some space.</source>
        <translation>내보내기 실패: %1. 다른 파일을 고르거나 공간을 확보하세요.</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>%1 읽는 중…</translation>
    </message>
    <message>
        <source>Any instance</source>
        <translation>모든 인스턴스</translation>
    </message>
    <message>
        <source> · &lt;b&gt;instance&lt;/b&gt; %1</source>
        <translation> · &lt;b&gt;인스턴스&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>gen_… or a user id, then Enter</source>
        <translation>gen_… 또는 사용자 ID 입력 후 Enter</translation>
    </message>
    <message>
        <source>A generation id (whole, or its first characters) or a user id. A user id is matched on its keyed hash with the installation's key: it is never stored, and the box then shows only its mask.</source>
        <translation>생성 ID(전체 또는 앞부분) 또는 사용자 ID. 사용자 ID는 이 설치의 키로 만든 해시로만 대조하며 저장하지 않습니다. 검색 후 입력란에는 마스킹된 값만 보입니다.</translation>
    </message>
    <message>
        <source>Clear search</source>
        <translation>검색 지우기</translation>
    </message>
    <message>
        <source>not read yet</source>
        <translation>아직 읽지 않음</translation>
    </message>
    <message>
        <source>Pause updates</source>
        <translation>갱신 일시 정지</translation>
    </message>
    <message>
        <source>Stop reading new rows and counts from the store (what is shown stays)</source>
        <translation>저장소에서 새 행과 집계를 더 읽지 않습니다 (보이는 내용은 그대로)</translation>
    </message>
    <message>
        <source>Copy id</source>
        <translation>ID 복사</translation>
    </message>
    <message>
        <source>Copy this generation's full id (for bullpen --open, the CLI or a ticket)</source>
        <translation>이 생성의 전체 ID를 복사합니다 (bullpen --open, CLI, 티켓용)</translation>
    </message>
    <message>
        <source>Hide detail</source>
        <translation>상세 숨기기</translation>
    </message>
    <message>
        <source>Hide the detail pane and give the table the width</source>
        <translation>상세 창을 숨기고 표를 넓게 봅니다</translation>
    </message>
    <message>
        <source>Of the generations in range that match the provider, instance and search (every outcome: codes, kinds and stages describe failures only), the share a fallback provider answered. Buckets without traffic are left empty, not bridged.</source>
        <translation>기간 안에서 제공자·인스턴스·검색 조건에 맞는 생성(모든 결과 포함: 코드·종류·단계는 실패에만 있음) 가운데 대체 제공자가 응답한 비율입니다. 트래픽이 없던 구간은 선으로 잇지 않고 비워 둡니다.</translation>
    </message>
    <message>
        <source>user %1</source>
        <translation>사용자 %1</translation>
    </message>
    <message>
        <source>Resume updates</source>
        <translation>갱신 재개</translation>
    </message>
    <message>
        <source>Show detail</source>
        <translation>상세 보기</translation>
    </message>
    <message>
        <source>Answered by the fallback</source>
        <translation>대체 제공자가 응답함</translation>
    </message>
    <message>
        <source>Any fallback reason</source>
        <translation>모든 대체 사유</translation>
    </message>
    <message>
        <source>Why the fallback got the stage, for every provider: circuit_open and drained are primaries skipped by a breaker or an operator; the others are the primary's failure</source>
        <translation>대체 제공자가 단계를 맡은 이유(모든 제공자): circuit_open과 drained는 차단기나 운영자가 건너뛴 기본 제공자이고, 나머지는 기본 제공자의 실패입니다</translation>
    </message>
    <message>
        <source>Only generations in which this provider, in this role, failed an attempt of this stage (from its health card). Click to remove.</source>
        <translation>이 제공자가 이 역할로 이 단계의 시도에 실패한 생성만 표시합니다(상태 카드에서). 클릭하면 해제합니다.</translation>
    </message>
    <message>
        <source>%1 %2 %3 failed ✕</source>
        <translation>%1 %2 %3 실패 ✕</translation>
    </message>
    <message>
        <source>Replay locally…</source>
        <translation>로컬에서 재현…</translation>
    </message>
    <message>
        <source>Play this generation again on the built-in simulator, as recorded or with other settings, and compare</source>
        <translation>이 생성을 내장 시뮬레이터에서 기록된 그대로 또는 다른 설정으로 다시 실행하고 비교합니다</translation>
    </message>
    <message>
        <source>Replay: %1</source>
        <translation>재현: %1</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>복사됨</translation>
    </message>
    <message>
        <source>No generations in range</source>
        <translation>기간 내 생성 없음</translation>
    </message>
    <message>
        <source>&lt;b&gt;Fallback&lt;/b&gt; answered, after %1</source>
        <translation>&lt;b&gt;대체&lt;/b&gt; %1 뒤에 대체 제공자가 응답함</translation>
    </message>
    <message>
        <source>&lt;b&gt;Fallback&lt;/b&gt; called after %1, and it failed too</source>
        <translation>&lt;b&gt;대체&lt;/b&gt; %1 뒤에 대체 제공자를 호출했으나 대체 제공자도 실패함</translation>
    </message>
    <message>
        <source>Matching generations: %L1 · fallback rate %2 % of the %L3 in range · counted in %4</source>
        <translation>일치하는 생성 %L1건 · 기간 내 생성 %L3건의 대체 비율 %2 % · 집계 %4</translation>
    </message>
    <message>
        <source>Exported to %2 (rows: %L1)</source>
        <translation>내보낸 곳: %2 (%L1행)</translation>
    </message>
    <message>
        <source>The history could not be read: %1</source>
        <translation>기록을 읽을 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Replay: no engine to replay with. Open this view from the console's window.</source>
        <translation>재현: 재현할 엔진이 없습니다. 콘솔 창에서 이 화면을 여십시오.</translation>
    </message>
</context>
<context>
    <name>bullpen::GenerationListModel</name>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>시작</translation>
    </message>
    <message>
        <source>Generation</source>
        <translation>생성</translation>
    </message>
    <message>
        <source>User</source>
        <translation>사용자</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>단계</translation>
    </message>
    <message>
        <source>Elapsed</source>
        <translation>경과</translation>
    </message>
    <message>
        <source>Budget left</source>
        <translation>남은 예산</translation>
    </message>
    <message>
        <source>queued behind %1</source>
        <translation>%1개 뒤에서 대기 중</translation>
    </message>
    <message>
        <source>Instance</source>
        <translation>인스턴스</translation>
    </message>
    <message>
        <source>running</source>
        <translation>실행 중</translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation>성공</translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation>실패: %1</translation>
    </message>
    <message>
        <source>failed at %1: %2</source>
        <translation>%1 단계에서 실패: %2</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>취소됨</translation>
    </message>
    <message>
        <source>cancelled at %1</source>
        <translation>%1 단계에서 취소됨</translation>
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
        <source>Providers</source>
        <translation>제공자</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>결과</translation>
    </message>
    <message>
        <source>running · fallback %1</source>
        <translation>실행 중 · 대체 호출 %1</translation>
    </message>
    <message>
        <source>succeeded · fallback %1</source>
        <translation>성공 · 대체 호출 %1</translation>
    </message>
    <message>
        <source> · after fallback %1</source>
        <translation> · 대체 호출 %1 이후</translation>
    </message>
    <message>
        <source> · primary skipped (drained)</source>
        <translation> · 기본 제공자 건너뜀(운영자가 제외함)</translation>
    </message>
    <message>
        <source> · primary skipped (circuit open)</source>
        <translation> · 기본 제공자 건너뜀(차단기 열림)</translation>
    </message>
    <message>
        <source>probe of the %1 stage · %2</source>
        <translation>%1 단계 프로브 · %2</translation>
    </message>
    <message>
        <source>%1 (primary probe)</source>
        <translation>%1(기본 제공자 프로브)</translation>
    </message>
    <message>
        <source>%1 (fallback probe)</source>
        <translation>%1(대체 제공자 프로브)</translation>
    </message>
</context>
<context>
    <name>bullpen::HealthStrip</name>
    <message>
        <source>%1: no attempts</source>
        <translation>%1: 시도 없음</translation>
    </message>
    <message>
        <source>%1 % errors</source>
        <translation>오류 %1 %</translation>
    </message>
    <message>
        <source>%1 % to fallback</source>
        <translation>대체 호출 %1 %</translation>
    </message>
    <message>
        <source>p50 %1 · p90 %2</source>
        <translation>p50 %1 · p90 %2</translation>
    </message>
    <message>
        <source>No provider attempts in the last 15 minutes.</source>
        <translation>최근 15분 동안 제공자 시도가 없습니다.</translation>
    </message>
    <message>
        <source>not read yet</source>
        <translation>아직 읽지 않음</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>일시 정지</translation>
    </message>
    <message>
        <source>Stop refreshing the provider health (the numbers stay as they are)</source>
        <translation>제공자 상태 갱신을 멈춥니다 (숫자는 그대로 남습니다)</translation>
    </message>
    <message>
        <source>Provider health needs the history (Bullpen was started without a store).</source>
        <translation>제공자 상태를 보려면 기록이 필요합니다 (Bullpen이 저장소 없이 시작됨).</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>재개</translation>
    </message>
    <message>
        <source>not updated: the store could not be read</source>
        <translation>갱신 안 됨: 저장소를 읽지 못했습니다</translation>
    </message>
    <message>
        <source>5 min</source>
        <translation>5분</translation>
    </message>
    <message>
        <source>15 min</source>
        <translation>15분</translation>
    </message>
    <message>
        <source>drain or restore refused</source>
        <translation>제외 또는 복원이 거부됨</translation>
    </message>
    <message>
        <source>DRAINED by %1 since %2</source>
        <translation>제외됨: %1, %2부터</translation>
    </message>
    <message>
        <source>, until %1</source>
        <translation>, %1까지</translation>
    </message>
    <message>
        <source>breaker OPEN (%1) since %2, next try %3</source>
        <translation>차단기 열림(%1): %2부터, 다음 시도 %3</translation>
    </message>
    <message>
        <source>breaker HALF-OPEN (%1): one trial request is testing it</source>
        <translation>차단기 반열림(%1): 시험 요청 하나가 확인하는 중</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; %2&lt;br&gt;&lt;small&gt;no attempts in the last 15 minutes&lt;/small&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; %2&lt;br&gt;&lt;small&gt;최근 15분 동안 시도 없음&lt;/small&gt;</translation>
    </message>
    <message>
        <source>Drain %1…</source>
        <translation>제공자 %1 제외…</translation>
    </message>
    <message>
        <source>Bullpen: %1's breaker opened (%2)</source>
        <translation>Bullpen: 제공자 %1 차단기 열림(%2)</translation>
    </message>
    <message>
        <source>Bullpen: %1 (%2, %3) is failing now</source>
        <translation>Bullpen: 제공자 %1(%2, %3) 장애 발생 중</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; %2 · %3 · &lt;span style="color:%4"&gt;&lt;b&gt;%5&lt;/b&gt;&lt;/span&gt;&lt;br&gt;&lt;small&gt;%6&lt;br&gt;%7&lt;/small&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; %2 · %3 · &lt;span style="color:%4"&gt;&lt;b&gt;%5&lt;/b&gt;&lt;/span&gt;&lt;br&gt;&lt;small&gt;%6&lt;br&gt;%7&lt;/small&gt;</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1초</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1분</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1시간</translation>
    </message>
    <message>
        <source>last probe %1 ago: ok %2</source>
        <translation>마지막 프로브 %1 전: 정상 %2</translation>
    </message>
    <message>
        <source>last probe %1 ago: %2 after %3</source>
        <translation>마지막 프로브 %1 전: %3 후 %2</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>실패</translation>
    </message>
    <message>
        <source>Probes are synthetic requests (bullpen-engine --probe-every); they are in none of the figures.</source>
        <translation>프로브는 합성 요청입니다(bullpen-engine --probe-every). 위의 어떤 수치에도 포함되지 않습니다.</translation>
    </message>
    <message>
        <source>%1: %L2 · %3 % err</source>
        <translation>%1: 시도 %L2건 · 오류 %3 %</translation>
    </message>
    <message>
        <source>%1: attempts %L2</source>
        <translation>%1: 시도 %L2건</translation>
    </message>
    <message>
        <source>Show these failures</source>
        <translation>이 실패 보기</translation>
    </message>
    <message>
        <source>The engine is not reachable; nothing can be drained until it is back</source>
        <translation>엔진에 연결할 수 없습니다. 다시 연결될 때까지 아무것도 제외할 수 없습니다</translation>
    </message>
    <message>
        <source>not updated: the engine is not reachable</source>
        <translation>갱신 안 됨: 엔진에 연결할 수 없음</translation>
    </message>
    <message>
        <source>Click to see these failures in Failures; right-click (or the Menu key) to drain or restore.</source>
        <translation>클릭하면 실패 보기에서 이 실패들을 봅니다. 오른쪽 클릭(또는 메뉴 키)으로 제외하거나 복원합니다.</translation>
    </message>
    <message>
        <source>Right-click (or the Menu key) to drain or restore.</source>
        <translation>오른쪽 클릭(또는 메뉴 키)으로 제외하거나 복원합니다.</translation>
    </message>
    <message>
        <source>Read from the store every %1: every engine writing there is counted</source>
        <translation>%1마다 저장소에서 읽습니다: 그곳에 기록하는 모든 엔진이 집계됩니다</translation>
    </message>
    <message>
        <source>Restore %1 (ends every drain of it)</source>
        <translation>제공자 %1 복원 (모든 제외를 끝냄)</translation>
    </message>
    <message>
        <source>DRAINED</source>
        <translation>제외됨</translation>
    </message>
    <message>
        <source>this console</source>
        <translation>이 콘솔</translation>
    </message>
    <message>
        <source>Every drain and breaker, with Restore, Reset and the audit trail: Engine ▸ Control (Ctrl+Shift+K).</source>
        <translation>모든 제외와 차단기, 복원·초기화·감사 기록: 엔진 ▸ 제어 (Ctrl+Shift+K).</translation>
    </message>
</context>
<context>
    <name>bullpen::LatencyView</name>
    <message>
        <source>Last hour</source>
        <translation>최근 1시간</translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation>최근 24시간</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>최근 7일</translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation>최근 30일</translation>
    </message>
    <message>
        <source>1-minute buckets</source>
        <translation>1분 단위</translation>
    </message>
    <message>
        <source>5-minute buckets</source>
        <translation>5분 단위</translation>
    </message>
    <message>
        <source>1-hour buckets</source>
        <translation>1시간 단위</translation>
    </message>
    <message>
        <source>6-hour buckets</source>
        <translation>6시간 단위</translation>
    </message>
    <message>
        <source>1-day buckets</source>
        <translation>1일 단위</translation>
    </message>
    <message>
        <source>as primary</source>
        <translation>기본으로</translation>
    </message>
    <message>
        <source>Latency percentiles and success rate</source>
        <translation>지연 시간 백분위수와 성공률</translation>
    </message>
    <message>
        <source>Histogram of attempt durations</source>
        <translation>시도 소요 시간 히스토그램</translation>
    </message>
    <message>
        <source>Extra wait fallback added</source>
        <translation>대체 호출이 늘린 대기 시간</translation>
    </message>
    <message>
        <source>Latency history is off: Bullpen was started without a store (--no-store).</source>
        <translation>지연 시간 기록이 꺼져 있습니다. Bullpen이 저장소 없이 시작되었습니다 (--no-store).</translation>
    </message>
    <message>
        <source>Reading attempts from the store…</source>
        <translation>저장소에서 시도를 읽는 중…</translation>
    </message>
    <message>
        <source>success rate</source>
        <translation>성공률</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>밀리초</translation>
    </message>
    <message>
        <source>success %</source>
        <translation>성공 %</translation>
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
        <source>extra wait p50</source>
        <translation>추가 대기 p50</translation>
    </message>
    <message>
        <source>extra wait p90</source>
        <translation>추가 대기 p90</translation>
    </message>
    <message>
        <source>s</source>
        <translation>초</translation>
    </message>
    <message>
        <source>Percentiles are read from log-spaced duration bins and are within %1 % of the exact values.</source>
        <translation>백분위수는 로그 간격 구간에서 읽으며 정확한 값과 %1 % 이내로 다릅니다.</translation>
    </message>
    <message>
        <source>not read yet</source>
        <translation>아직 읽지 않음</translation>
    </message>
    <message>
        <source>Pause updates</source>
        <translation>갱신 일시 정지</translation>
    </message>
    <message>
        <source>Stop reading the store again (this console's own attempts are still added)</source>
        <translation>저장소를 다시 읽지 않습니다 (이 콘솔의 시도는 계속 더해집니다)</translation>
    </message>
    <message>
        <source>Resume updates</source>
        <translation>갱신 재개</translation>
    </message>
    <message>
        <source>timeout %1</source>
        <translation>제한 시간 %1</translation>
    </message>
    <message>
        <source>extra wait p99</source>
        <translation>추가 대기 p99</translation>
    </message>
    <message>
        <source>as fallback</source>
        <translation>대체 제공자 역할</translation>
    </message>
    <message>
        <source>No stage the fallback answered in this range.</source>
        <translation>이 기간에는 대체 제공자가 응답한 단계가 없습니다.</translation>
    </message>
    <message>
        <source>compare with…</source>
        <translation>비교 대상…</translation>
    </message>
    <message>
        <source>compare with %1</source>
        <translation>비교: %1</translation>
    </message>
    <message>
        <source>Draw another provider's p50 and p90 (dashed) in the same role and stage</source>
        <translation>같은 역할과 단계에서 다른 제공자의 p50, p90을 점선으로 함께 그립니다</translation>
    </message>
    <message>
        <source>timeout %1 (far above these values)</source>
        <translation>제한 시간 %1 (이 값들보다 훨씬 위)</translation>
    </message>
    <message>
        <source>%1 %2, %3 stage: attempts %L4, success %5 %, p50 %6 · p90 %7 · p99 %8.</source>
        <translation>%1 %2, %3 단계: 시도 %L4건, 성공 %5 %, p50 %6 · p90 %7 · p99 %8.</translation>
    </message>
    <message>
        <source>Fallback added an extra wait of p50 %1 · p90 %2 · p99 %3 over the stages the fallback answered (%L4; primary's time + fallback's time − the primary's success median %5).</source>
        <translation>대체 제공자가 응답한 단계 %L4건에서 대기가 p50 %1 · p90 %2 · p99 %3 늘었습니다 (기본 소요 + 대체 소요 − 기본 성공 중앙값 %5).</translation>
    </message>
    <message>
        <source>Generations that skipped this primary (breaker open or drained): %L1. They waited for nothing and are not in the extra wait.</source>
        <translation>이 기본 제공자를 건너뛴 생성(차단기 열림 또는 운영자 제외): %L1건. 기다린 시간이 없으므로 추가 대기에 넣지 않았습니다.</translation>
    </message>
    <message>
        <source>attempt duration, s (each bar: up to its label)</source>
        <translation>시도 소요 시간, 초 (막대마다 표시된 값까지)</translation>
    </message>
    <message>
        <source>No extra wait to draw: no generation in this range was answered by its fallback</source>
        <translation>그릴 추가 대기 시간이 없음: 이 기간에 대체 제공자가 응답한 생성이 없습니다</translation>
    </message>
    <message>
        <source>The history could not be read: %1</source>
        <translation>기록을 읽을 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Durations</source>
        <translation>소요 시간</translation>
    </message>
    <message>
        <source>Tune</source>
        <translation>튜닝</translation>
    </message>
    <message>
        <source>Spend</source>
        <translation>지출</translation>
    </message>
</context>
<context>
    <name>bullpen::LinkFilters</name>
    <message>
        <source>unknown part "%1" in the link; this view's link takes %2</source>
        <translation>링크에 알 수 없는 부분 "%1" 있음. 이 화면의 링크에 넣을 수 있는 것: %2</translation>
    </message>
    <message>
        <source>%1=%2 in the link is not one of %3; Copy link gives a link this console opens</source>
        <translation>링크의 %1=%2 값이 다음 중 하나가 아님: %3. 링크 복사로 이 콘솔이 여는 링크를 얻을 수 있음</translation>
    </message>
</context>
<context>
    <name>bullpen::LiveView</name>
    <message>
        <source>All events</source>
        <translation>모든 이벤트</translation>
    </message>
    <message>
        <source>All instances</source>
        <translation>모든 인스턴스</translation>
    </message>
    <message>
        <source>Only the selected generation</source>
        <translation>선택한 생성만</translation>
    </message>
    <message>
        <source>Show the events of the generation selected above; clear it to see every generation's events</source>
        <translation>위에서 선택한 생성의 이벤트만 보여줍니다. 해제하면 모든 생성의 이벤트를 봅니다</translation>
    </message>
    <message>
        <source>New generation started, out of view: show it</source>
        <translation>새 생성이 시작됨(화면 밖): 보기</translation>
    </message>
</context>
<context>
    <name>bullpen::MainWindow</name>
    <message>
        <source>Acknowledge</source>
        <translation>확인</translation>
    </message>
    <message>
        <source>The generations themselves were not affected, but the history does not hold these records. Free disk space or repair the store; the count stays until you acknowledge it.</source>
        <translation>생성 자체에는 영향이 없지만 이 기록은 이력에 남지 않았습니다. 디스크 공간을 확보하거나 저장소를 복구하세요. 확인할 때까지 개수가 표시됩니다.</translation>
    </message>
    <message>
        <source>Bullpen</source>
        <translation>Bullpen</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>실행</translation>
    </message>
    <message>
        <source>Live</source>
        <translation>실시간</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>결과</translation>
    </message>
    <message>
        <source>Failures</source>
        <translation>실패</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>지연 시간</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>비교</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>설정</translation>
    </message>
    <message>
        <source>⚠ %1</source>
        <translation>⚠ %1</translation>
    </message>
    <message>
        <source>&amp;Engine</source>
        <translation>엔진(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Connect to an engine…</source>
        <translation>엔진에 연결(&amp;C)…</translation>
    </message>
    <message>
        <source>Connect to an engine</source>
        <translation>엔진에 연결</translation>
    </message>
    <message>
        <source>bp_… (from `bullpen-engine token add NAME --role operator`)</source>
        <translation>bp_… (`bullpen-engine token add NAME --role operator`로 발급)</translation>
    </message>
    <message>
        <source>Keep the token in the key file (mode 0600) as BULLPEN_ENGINE_TOKEN</source>
        <translation>토큰을 키 파일(권한 0600)에 BULLPEN_ENGINE_TOKEN으로 보관</translation>
    </message>
    <message>
        <source>Engine URL</source>
        <translation>엔진 URL</translation>
    </message>
    <message>
        <source>API token</source>
        <translation>API 토큰</translation>
    </message>
    <message>
        <source>The engine refuses every request without a token.</source>
        <translation>엔진은 토큰 없는 요청을 모두 거부합니다.</translation>
    </message>
    <message>
        <source>Could not keep the token: %1</source>
        <translation>토큰을 보관하지 못했습니다: %1</translation>
    </message>
    <message>
        <source>Store unreachable since %1 — records are held and written when it is back</source>
        <translation>%1부터 저장소에 연결할 수 없음 — 기록은 보관 중이며 연결되면 기록합니다</translation>
    </message>
    <message>
        <source>Keep the token in the system keychain as BULLPEN_ENGINE_TOKEN</source>
        <translation>토큰을 시스템 키체인에 BULLPEN_ENGINE_TOKEN으로 보관</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>파일(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>끝내기(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Generate</source>
        <translation>생성(&amp;G)</translation>
    </message>
    <message>
        <source>Cancel &amp;everything running</source>
        <translation>실행 중인 것 모두 취소(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>보기(&amp;V)</translation>
    </message>
    <message>
        <source>Next view</source>
        <translation>다음 화면</translation>
    </message>
    <message>
        <source>Previous view</source>
        <translation>이전 화면</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>도움말(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>단축키(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;About Bullpen</source>
        <translation>Bullpen 정보(&amp;A)</translation>
    </message>
    <message>
        <source>About Bullpen</source>
        <translation>Bullpen 정보</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Bullpen&lt;/b&gt; %1&lt;/p&gt;&lt;p&gt;An operator console for an AI generation engine with fallback providers: run test generations, watch every attempt and fallback, read failures and latency.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Bullpen&lt;/b&gt; %1&lt;/p&gt;&lt;p&gt;대체 제공자를 둔 AI 생성 엔진의 운영 콘솔입니다. 시험 생성을 실행하고, 모든 시도와 대체를 지켜보고, 실패와 지연 시간을 읽습니다.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Tab, Shift+Tab</source>
        <translation>Tab, Shift+Tab</translation>
    </message>
    <message>
        <source>Next or previous control; a table is one stop</source>
        <translation>다음 또는 이전 컨트롤로 이동(표는 한 번에 지나감)</translation>
    </message>
    <message>
        <source>Arrow keys</source>
        <translation>화살표 키</translation>
    </message>
    <message>
        <source>Move within a table or chart list</source>
        <translation>표나 차트 목록 안에서 이동</translation>
    </message>
    <message>
        <source>Enter</source>
        <translation>Enter</translation>
    </message>
    <message>
        <source>Open the selected row (Failures, Compare)</source>
        <translation>선택한 행 열기(실패, 비교)</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>단축키</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>키</translation>
    </message>
    <message>
        <source>What</source>
        <translation>동작</translation>
    </message>
    <message>
        <source>Generations still running</source>
        <translation>아직 실행 중인 생성</translation>
    </message>
    <message>
        <source>Still running on the engine: %L1.</source>
        <translation>엔진에서 실행 중인 생성 %L1건</translation>
    </message>
    <message>
        <source>The engine keeps running them after this window closes; their results stay in its history (Failures and Latency show them when you attach again).</source>
        <translation>이 창을 닫아도 엔진은 계속 실행하며, 결과는 엔진의 기록에 남습니다(다시 연결하면 실패와 지연 시간 화면에 나타납니다).</translation>
    </message>
    <message>
        <source>Close the window</source>
        <translation>창 닫기</translation>
    </message>
    <message>
        <source>Still running in this window: %L1.</source>
        <translation>이 창에서 실행 중인 생성 %L1건</translation>
    </message>
    <message>
        <source>Quitting cancels them; each is recorded as cancelled.</source>
        <translation>끝내면 모두 취소되고, 각각 취소됨으로 기록됩니다.</translation>
    </message>
    <message>
        <source>Cancel them and quit</source>
        <translation>취소하고 끝내기</translation>
    </message>
    <message>
        <source>Record writes failed: %L1 — %2: %3</source>
        <translation>기록 쓰기 실패 %L1건 — %2: %3</translation>
    </message>
    <message>
        <source>Keep the window open</source>
        <translation>창을 열어 두기</translation>
    </message>
    <message>
        <source>Don't quit</source>
        <translation>종료하지 않기</translation>
    </message>
    <message>
        <source>Write a story (Run)</source>
        <translation>이야기 쓰기(실행)</translation>
    </message>
    <message>
        <source>Control</source>
        <translation>제어</translation>
    </message>
    <message>
        <source>&amp;Drain a provider…</source>
        <translation>제공자 제외(&amp;D)…</translation>
    </message>
    <message>
        <source>C&amp;ontrol: drains, breakers, audit</source>
        <translation>제어: 제외, 차단기, 감사 기록(&amp;O)</translation>
    </message>
    <message>
        <source>Copy link to this view</source>
        <translation>이 화면 링크 복사</translation>
    </message>
    <message>
        <source>the %1 view's link takes no filters; Copy link gives a link this console opens</source>
        <translation>%1 화면 링크에는 필터를 넣을 수 없음. 링크 복사로 이 콘솔이 여는 링크를 얻을 수 있음</translation>
    </message>
</context>
<context>
    <name>bullpen::ProbeListModel</name>
    <message>
        <source>Provider</source>
        <translation>제공자</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>역할</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>단계</translation>
    </message>
    <message>
        <source>Last result</source>
        <translation>마지막 결과</translation>
    </message>
    <message>
        <source>Took</source>
        <translation>소요</translation>
    </message>
    <message>
        <source>When</source>
        <translation>시각</translation>
    </message>
    <message>
        <source>Next due</source>
        <translation>다음 예정</translation>
    </message>
    <message>
        <source>first probe running</source>
        <translation>첫 프로브 실행 중</translation>
    </message>
    <message>
        <source>not probed yet</source>
        <translation>아직 프로브 안 함</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>성공</translation>
    </message>
    <message>
        <source>running</source>
        <translation>실행 중</translation>
    </message>
    <message>
        <source>now</source>
        <translation>지금</translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>%1 후</translation>
    </message>
    <message>
        <source>Users' traffic reached it within the interval: no probe while it has traffic</source>
        <translation>간격 안에 사용자 트래픽이 있었음: 트래픽이 있는 동안 프로브 없음</translation>
    </message>
    <message>
        <source>Its breaker is open or it is drained: no probe until the breaker lets one through</source>
        <translation>차단기가 열려 있거나 제외됨: 차단기가 허용할 때까지 프로브 없음</translation>
    </message>
</context>
<context>
    <name>bullpen::ProviderHealthModel</name>
    <message>
        <source>failing now</source>
        <translation>장애 발생 중</translation>
    </message>
    <message>
        <source>degraded</source>
        <translation>저하</translation>
    </message>
    <message>
        <source>healthy</source>
        <translation>정상</translation>
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
        <source>Of this provider's failed primary attempts, the share handed to the fallback provider (which then had its one attempt)</source>
        <translation>이 제공자의 실패한 기본 시도 가운데 대체 제공자에게 넘어간 비율 (대체 제공자는 한 번 시도)</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>제공자</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>역할</translation>
    </message>
    <message>
        <source>Now</source>
        <translation>지금</translation>
    </message>
    <message>
        <source>15 min</source>
        <translation>15분</translation>
    </message>
    <message>
        <source>5 min</source>
        <translation>5분</translation>
    </message>
    <message>
        <source>attempts</source>
        <translation>시도</translation>
    </message>
    <message>
        <source>errors</source>
        <translation>오류</translation>
    </message>
    <message>
        <source>top kind</source>
        <translation>최다 종류</translation>
    </message>
    <message>
        <source>to fallback</source>
        <translation>대체 호출</translation>
    </message>
    <message>
        <source>p50</source>
        <translation>p50</translation>
    </message>
    <message>
        <source>p90</source>
        <translation>p90</translation>
    </message>
    <message>
        <source>Failing now: over the last 5 minutes at least %1 attempts reached the provider and %2 % or more of them failed. Degraded: the same minimum and %3 % or more. Fewer than %1 attempts: too few to judge (grey). Attempts that never left Bullpen (NOT_SENT) or were cancelled are not the provider's and are not counted.</source>
        <translation>장애 발생 중: 최근 5분 동안 제공자에 도달한 시도가 %1건 이상이고 그중 %2 % 이상이 실패했습니다. 저하: 같은 최소 건수에 %3 % 이상 실패. 시도가 %1건 미만이면 판단하기에 너무 적습니다(회색). Bullpen을 떠나지 못한 시도(NOT_SENT)와 취소된 시도는 제공자 탓이 아니므로 세지 않습니다.</translation>
    </message>
    <message>
        <source>too few attempts</source>
        <translation>시도가 너무 적음</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>단계</translation>
    </message>
</context>
<context>
    <name>bullpen::ReplayDialog</name>
    <message>
        <source>Replay %1 locally</source>
        <translation>%1 로컬 재현</translation>
    </message>
    <message>
        <source>Every attempt can be played exactly.</source>
        <translation>모든 시도를 정확히 재현할 수 있습니다.</translation>
    </message>
    <message>
        <source>Played approximately (their times are not judged):&lt;br&gt;%1</source>
        <translation>근사 재현(시간은 판정하지 않음):&lt;br&gt;%1</translation>
    </message>
    <message>
        <source>Choose the settings and press Replay.</source>
        <translation>설정을 고르고 재현을 누르십시오.</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>재현</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>닫기</translation>
    </message>
    <message>
        <source>&lt;b&gt;Recorded&lt;/b&gt;</source>
        <translation>&lt;b&gt;기록&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Replayed&lt;/b&gt;</source>
        <translation>&lt;b&gt;재현&lt;/b&gt;</translation>
    </message>
    <message>
        <source>As recorded</source>
        <translation>기록된 그대로</translation>
    </message>
    <message>
        <source>With these settings:</source>
        <translation>다음 설정으로:</translation>
    </message>
    <message>
        <source>none</source>
        <translation>없음</translation>
    </message>
    <message>
        <source>Breakers on</source>
        <translation>차단기 켜기</translation>
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
        <source>Fallback provider</source>
        <translation>대체 제공자</translation>
    </message>
    <message>
        <source>The replay's files could not be written to a temporary folder.</source>
        <translation>재현 파일을 임시 폴더에 쓸 수 없습니다.</translation>
    </message>
    <message>
        <source>These settings are refused: %1</source>
        <translation>이 설정은 거부되었습니다: %1</translation>
    </message>
    <message>
        <source>Replaying…</source>
        <translation>재현 중…</translation>
    </message>
    <message>
        <source>Plays this generation again on the built-in simulator: each provider behaves, attempt by attempt, as it did (the same kind, status and time). Nothing is sent to a provider.</source>
        <translation>이 생성을 내장 시뮬레이터에서 다시 실행합니다. 각 제공자는 시도마다 그때와 같이 동작합니다(같은 종류, 상태, 시간). 제공자에게는 아무것도 보내지 않습니다.</translation>
    </message>
    <message>
        <source>Each replay is kept in the history as a replay of this generation (synthetic: left out of users' figures; Failures finds it by its id).</source>
        <translation>각 재현은 이 생성의 재현으로 기록에 남습니다(합성: 사용자 수치에서 제외되며, 실패 화면에서 ID로 찾을 수 있습니다).</translation>
    </message>
    <message>
        <source>Nothing is stored (the history is the attached engine's).</source>
        <translation>아무것도 저장하지 않습니다(기록은 연결된 엔진의 것입니다).</translation>
    </message>
    <message>
        <source>Kept as %1.</source>
        <translation>보관한 이름: %1.</translation>
    </message>
    <message>
        <source>Export for a bug report…</source>
        <translation>버그 보고용으로 내보내기…</translation>
    </message>
    <message>
        <source>The scenario, the settings, the verdict, this generation as exports show it (masked) and the replay's result, in one JSON file.</source>
        <translation>시나리오, 설정, 판정, 내보내기와 같이 마스킹된 이 생성, 재현 결과를 JSON 파일 하나에 담습니다.</translation>
    </message>
    <message>
        <source>Replay first: the report holds the replay's result.</source>
        <translation>먼저 재현하세요. 보고서에는 재현 결과가 들어갑니다.</translation>
    </message>
    <message>
        <source>Export the replay for a bug report</source>
        <translation>버그 보고용으로 재현 내보내기</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>내보내기 실패</translation>
    </message>
    <message>
        <source>%1 could not be written: %2</source>
        <translation>%1에 쓸 수 없습니다: %2</translation>
    </message>
</context>
<context>
    <name>bullpen::ResultView</name>
    <message>
        <source>No result yet: run a generation.</source>
        <translation>아직 결과가 없습니다. 생성을 실행하세요.</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>다시 시도</translation>
    </message>
    <message>
        <source> (from cache)</source>
        <translation> (캐시에서)</translation>
    </message>
    <message>
        <source> (degraded: default captions)</source>
        <translation> (품질 저하: 기본 캡션)</translation>
    </message>
    <message>
        <source>%1 at the %2 stage</source>
        <translation>%2 단계에서 %1</translation>
    </message>
    <message>
        <source>alt (default):</source>
        <translation>대체 텍스트 (기본):</translation>
    </message>
    <message>
        <source>alt:</source>
        <translation>대체 텍스트:</translation>
    </message>
    <message>
        <source>No image</source>
        <translation>이미지 없음</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>예</translation>
    </message>
    <message>
        <source>no</source>
        <translation>아니요</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>시도</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>성공</translation>
    </message>
    <message>
        <source> · cancelled by us (the provider may still have computed and billed it)</source>
        <translation> · 우리가 취소함 (제공자는 이미 계산하고 과금했을 수 있음)</translation>
    </message>
    <message>
        <source>Open Settings</source>
        <translation>설정 열기</translation>
    </message>
    <message>
        <source>Edit story</source>
        <translation>이야기 수정</translation>
    </message>
    <message>
        <source>Fallback</source>
        <translation>대체 제공자</translation>
    </message>
    <message>
        <source>Fallback used</source>
        <translation>대체 제공자 사용</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>이유</translation>
    </message>
    <message>
        <source>Primary provider</source>
        <translation>기본 제공자</translation>
    </message>
    <message>
        <source>Answered by</source>
        <translation>응답한 제공자</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>모델</translation>
    </message>
    <message>
        <source> · tokens in %1 / out %2</source>
        <translation> · 토큰 입력 %1 / 출력 %2</translation>
    </message>
    <message>
        <source>Field names in the API, the store and exports:
%1</source>
        <translation>API, 저장소, 내보내기에서의 필드 이름:
%1</translation>
    </message>
    <message>
        <source> — answered by the fallback %1</source>
        <translation> — 대체 제공자 %1 응답</translation>
    </message>
    <message>
        <source>Succeeded in %1%2%3</source>
        <translation>%1 만에 성공%2%3</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>비용</translation>
    </message>
    <message>
        <source>This generation</source>
        <translation>이 생성</translation>
    </message>
    <message>
        <source>Added by the fallback</source>
        <translation>대체로 늘어난 비용</translation>
    </message>
    <message>
        <source>Attempts of unknown cost (no tokens reported), not counted: %1</source>
        <translation>비용을 알 수 없는 시도(토큰 보고 없음), 합계에서 제외: %1</translation>
    </message>
</context>
<context>
    <name>bullpen::RunView</name>
    <message>
        <source>Write a short story (Korean or English)…</source>
        <translation>짧은 이야기를 쓰세요 (한국어 또는 영어)…</translation>
    </message>
    <message>
        <source>user id (stored only as a keyed hash and a mask)</source>
        <translation>사용자 ID (키 해시와 마스크로만 저장됨)</translation>
    </message>
    <message>
        <source>none</source>
        <translation>없음</translation>
    </message>
    <message>
        <source>primary + fallback</source>
        <translation>기본 + 대체</translation>
    </message>
    <message>
        <source>Generate</source>
        <translation>생성</translation>
    </message>
    <message>
        <source>Generate ×N</source>
        <translation>생성 ×N</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>비교</translation>
    </message>
    <message>
        <source>User</source>
        <translation>사용자</translation>
    </message>
    <message>
        <source>Policy</source>
        <translation>정책</translation>
    </message>
    <message>
        <source>Primary</source>
        <translation>기본</translation>
    </message>
    <message>
        <source>Primary timeout</source>
        <translation>기본 제한 시간</translation>
    </message>
    <message>
        <source>Stage budget</source>
        <translation>단계 예산</translation>
    </message>
    <message>
        <source>Simulator scenario</source>
        <translation>시뮬레이터 시나리오</translation>
    </message>
    <message>
        <source>Story</source>
        <translation>이야기</translation>
    </message>
    <message>
        <source>Primary timeout: %1</source>
        <translation>기본 제한 시간: %1</translation>
    </message>
    <message>
        <source>Stage budget: %1</source>
        <translation>단계 예산: %1</translation>
    </message>
    <message>
        <source>Run the story on the primary and on the fallback provider at once, each alone, and show them side by side</source>
        <translation>이야기를 기본 제공자와 대체 제공자에서 동시에 각각 단독으로 실행하고 나란히 보여줍니다</translation>
    </message>
    <message>
        <source>Fallback</source>
        <translation>대체 제공자</translation>
    </message>
    <message>
        <source>Fallback timeout</source>
        <translation>대체 제한 시간</translation>
    </message>
    <message>
        <source>Fallback: the same provider as the primary; choose another or none (STORYBOARD_FALLBACK_PROVIDER).</source>
        <translation>대체: 기본과 같은 제공자입니다. 다른 제공자나 없음을 고르세요 (STORYBOARD_FALLBACK_PROVIDER).</translation>
    </message>
    <message>
        <source>Fallback timeout: %1</source>
        <translation>대체 제한 시간: %1</translation>
    </message>
    <message>
        <source>Generations running: %L1</source>
        <translation>실행 중인 생성 %L1건</translation>
    </message>
    <message>
        <source>The engine cannot take a generation now: %1</source>
        <translation>지금은 엔진이 생성을 받을 수 없습니다: %1</translation>
    </message>
</context>
<context>
    <name>bullpen::SettingsForm</name>
    <message>
        <source>must be greater than zero</source>
        <translation>0보다 커야 합니다</translation>
    </message>
</context>
<context>
    <name>bullpen::SettingsView</name>
    <message>
        <source>none (no automatic fallback)</source>
        <translation>없음 (자동 대체 안 함)</translation>
    </message>
    <message>
        <source>Storyboard stage</source>
        <translation>스토리보드 단계</translation>
    </message>
    <message>
        <source>Primary provider</source>
        <translation>기본 제공자</translation>
    </message>
    <message>
        <source>Fallback provider</source>
        <translation>대체 제공자</translation>
    </message>
    <message>
        <source>Providers</source>
        <translation>제공자</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>제공자</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>기본 URL</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>모델</translation>
    </message>
    <message>
        <source>Stream</source>
        <translation>스트림</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 키</translation>
    </message>
    <message>
        <source>Set key…</source>
        <translation>키 설정…</translation>
    </message>
    <message>
        <source>Image and captions</source>
        <translation>이미지와 캡션</translation>
    </message>
    <message>
        <source>System language</source>
        <translation>시스템 언어</translation>
    </message>
    <message>
        <source>Store and interface</source>
        <translation>저장소와 화면</translation>
    </message>
    <message>
        <source>Data directory</source>
        <translation>데이터 폴더</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>언어</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>저장</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>되돌리기</translation>
    </message>
    <message>
        <source>overridden now by %1 in the environment</source>
        <translation>지금은 환경 변수 %1 값이 우선함</translation>
    </message>
    <message>
        <source>The settings file has problems; fix them here and Save: %1</source>
        <translation>설정 파일에 문제가 있습니다. 여기서 고치고 저장하세요: %1</translation>
    </message>
    <message>
        <source>environment %1: %2</source>
        <translation>환경 변수 %1: %2</translation>
    </message>
    <message>
        <source>key file (0600): %1</source>
        <translation>키 파일 (0600): %1</translation>
    </message>
    <message>
        <source>not set (the built-in simulator answers)</source>
        <translation>설정 안 됨 (내장 시뮬레이터가 응답)</translation>
    </message>
    <message>
        <source>not set</source>
        <translation>설정 안 됨</translation>
    </message>
    <message>
        <source>needs a model name</source>
        <translation>모델 이름이 필요합니다</translation>
    </message>
    <message>
        <source>must be an absolute path (or empty for %1)</source>
        <translation>절대 경로여야 합니다 (비우면 %1)</translation>
    </message>
    <message>
        <source>Fix the fields marked in red to save.</source>
        <translation>빨간색으로 표시된 항목을 고쳐야 저장할 수 있습니다.</translation>
    </message>
    <message>
        <source>Saved to %1. Restart Bullpen to use the new settings.</source>
        <translation>%1에 저장했습니다. 새 설정을 쓰려면 Bullpen을 다시 시작하세요.</translation>
    </message>
    <message>
        <source>API key for %1</source>
        <translation>%1 API 키</translation>
    </message>
    <message>
        <source>30d</source>
        <translation>30d (30일)</translation>
    </message>
    <message>
        <source>How long generations, their attempts, events and comparisons are kept: 12h, 30d, 2w, or off. Each engine purges older ones in short steps; a running generation is never removed.</source>
        <translation>생성 기록과 그 시도, 이벤트, 비교 결과를 보관하는 기간입니다: 12h, 30d, 2w 또는 off. 각 엔진이 더 오래된 기록을 짧은 단계로 나누어 지우며, 실행 중인 생성은 지우지 않습니다.</translation>
    </message>
    <message>
        <source>400d</source>
        <translation>400d (400일)</translation>
    </message>
    <message>
        <source>How long the hourly aggregates behind the dashboards, and the audit, are kept; never shorter than the generations.</source>
        <translation>대시보드가 읽는 시간별 집계와 감사 기록을 보관하는 기간입니다. 생성 기록의 보관 기간보다 짧을 수 없습니다.</translation>
    </message>
    <message>
        <source>Keep generations</source>
        <translation>생성 기록 보관 기간</translation>
    </message>
    <message>
        <source>Keep aggregates</source>
        <translation>집계 보관 기간</translation>
    </message>
    <message>
        <source>Settings file: %1 · the environment overrides it (docs/contract.md §4.6); changes apply at the next start.</source>
        <translation>설정 파일: %1 · 환경 변수가 우선합니다 (docs/contract.md §4.6). 변경은 다음 시작 때 적용됩니다.</translation>
    </message>
    <message>
        <source>Keys are looked up in this order: the environment (*_API_KEY), the system keychain (Secret Service), then the key file %1 (mode 0600). Set key… stores a key in the system keychain.</source>
        <translation>키는 다음 순서로 찾습니다: 환경 변수(*_API_KEY), 시스템 키체인(Secret Service), 키 파일 %1(권한 0600). 키 설정…은 키를 시스템 키체인에 보관합니다.</translation>
    </message>
    <message>
        <source>Keys are looked up in this order: the environment (*_API_KEY), the system keychain, then the key file %1 (mode 0600). There is no system keychain here (%2), so Set key… writes the key file.</source>
        <translation>키는 다음 순서로 찾습니다: 환경 변수(*_API_KEY), 시스템 키체인, 키 파일 %1(권한 0600). 이곳에는 시스템 키체인이 없으므로(%2) 키 설정…은 키 파일에 기록합니다.</translation>
    </message>
    <message>
        <source>system keychain: %1</source>
        <translation>시스템 키체인: %1</translation>
    </message>
    <message>
        <source>the system keychain</source>
        <translation>시스템 키체인</translation>
    </message>
    <message>
        <source>%1 (mode 0600)</source>
        <translation>%1 (권한 0600)</translation>
    </message>
    <message>
        <source>Paste the key. It is kept in %1 and never shown again. Leave empty to remove it.</source>
        <translation>키를 붙여 넣으세요. %1에 보관되며 다시 표시되지 않습니다. 비워 두면 삭제합니다.</translation>
    </message>
    <message>
        <source>Key removed from the system keychain.</source>
        <translation>시스템 키체인에서 키를 삭제했습니다.</translation>
    </message>
    <message>
        <source>Key saved in the system keychain.</source>
        <translation>시스템 키체인에 키를 저장했습니다.</translation>
    </message>
    <message>
        <source>Key saved to %1.</source>
        <translation>키를 저장했습니다: %1.</translation>
    </message>
    <message>
        <source>No system keychain here (%1): key saved to %2 (mode 0600) instead.</source>
        <translation>이곳에는 시스템 키체인이 없어(%1) 대신 %2(권한 0600)에 키를 저장했습니다.</translation>
    </message>
    <message>
        <source>%1 But %2 in the environment still wins.</source>
        <translation>%1 하지만 환경 변수 %2 값이 여전히 우선합니다.</translation>
    </message>
    <message>
        <source>%1 Restart Bullpen to use it.</source>
        <translation>%1 사용하려면 Bullpen을 다시 시작하세요.</translation>
    </message>
    <message>
        <source>Desktop notification when a provider fails now or its breaker opens (at most one per provider per 5 minutes)</source>
        <translation>제공자에 장애가 발생하거나 차단기가 열리면 데스크톱 알림 (제공자마다 5분에 한 번까지)</translation>
    </message>
    <message>
        <source>Desktop notifications</source>
        <translation>데스크톱 알림</translation>
    </message>
    <message>
        <source>Added providers (a JSON list of entries: id, name, format, base_url, model, key_variable, auth_header, query, stages; see docs/configuration.md). After Save they are in the pickers.</source>
        <translation>추가 제공자(항목의 JSON 목록: id, name, format, base_url, model, key_variable, auth_header, query, stages. docs/configuration.md 참고). 저장하면 선택 목록에 나타납니다.</translation>
    </message>
    <message>
        <source>not JSON: %1 at character %2</source>
        <translation>JSON이 아닙니다: 문자 %2에서 %1</translation>
    </message>
    <message>
        <source>must be a JSON list of provider entries: [ { "id": …, "format": … } ]</source>
        <translation>제공자 항목의 JSON 목록이어야 합니다: [ { "id": …, "format": … } ]</translation>
    </message>
    <message>
        <source>%1 is built in: set its endpoint and model in the table above</source>
        <translation>%1: 기본 내장 제공자입니다. 엔드포인트와 모델은 위 표에서 설정하십시오</translation>
    </message>
    <message>
        <source>none</source>
        <translation>없음</translation>
    </message>
    <message>
        <source>&lt;b&gt;The engine runs with&lt;/b&gt; %1: %2 → %3, timeouts %4 and %5.</source>
        <translation>&lt;b&gt;엔진이 지금 쓰는 설정&lt;/b&gt; %1: %2 → %3, 제한 시간 %4 및 %5.</translation>
    </message>
    <message>
        <source>%1 in the environment</source>
        <translation>환경 변수 %1</translation>
    </message>
    <message>
        <source>chosen for the built-in simulator; set %1 to change it</source>
        <translation>내장 시뮬레이터용으로 선택됨. 바꾸려면 설정 %1 값을 바꾸세요</translation>
    </message>
    <message>
        <source>the engine's default</source>
        <translation>엔진 기본값</translation>
    </message>
    <message>
        <source>primary %1, not %2 (%3)</source>
        <translation>기본 제공자 %1 (파일에는 %2, %3)</translation>
    </message>
    <message>
        <source>fallback %1, not %2 (%3)</source>
        <translation>대체 제공자 %1 (파일에는 %2, %3)</translation>
    </message>
    <message>
        <source>policy %1, not %2 (%3)</source>
        <translation>정책 %1 (파일에는 %2, %3)</translation>
    </message>
    <message>
        <source>Not what the file below says: %1.</source>
        <translation>아래 파일과 다른 점: %1.</translation>
    </message>
    <message>
        <source>Desktop notifications (unavailable: %1)</source>
        <translation>데스크톱 알림 (사용할 수 없음: %1)</translation>
    </message>
    <message>
        <source>Breakers</source>
        <translation>차단기</translation>
    </message>
    <message>
        <source>Network and attaching</source>
        <translation>네트워크와 엔진 연결</translation>
    </message>
    <message>
        <source>Engine service</source>
        <translation>엔진 서비스</translation>
    </message>
</context>
<context>
    <name>bullpen::SilenceDialog</name>
    <message>
        <source>Silence %1</source>
        <translation>무음: %1</translation>
    </message>
    <message>
        <source>for %1 minutes</source>
        <translation>%1분 동안</translation>
    </message>
    <message>
        <source>for 1 hour</source>
        <translation>1시간 동안</translation>
    </message>
    <message>
        <source>for %1 hours</source>
        <translation>%1시간 동안</translation>
    </message>
    <message>
        <source>e.g. known outage, ticket 4711</source>
        <translation>예: 알려진 장애, 티켓 4711</translation>
    </message>
    <message>
        <source>Its alerts stay listed and keep their state; no desktop notification is raised for them until the silence ends. It ends on its own, or with End silence.</source>
        <translation>경보는 목록에 남고 상태도 그대로입니다. 무음이 끝날 때까지 데스크톱 알림을 띄우지 않습니다. 무음은 저절로 끝나거나 무음 해제로 끝납니다.</translation>
    </message>
    <message>
        <source>Silence</source>
        <translation>무음</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>이유</translation>
    </message>
    <message>
        <source>How long</source>
        <translation>기간</translation>
    </message>
</context>
<context>
    <name>bullpen::SpendModel</name>
    <message>
        <source>unknown</source>
        <translation>알 수 없음</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>제공자</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>단계</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>역할</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>시도</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>비용</translation>
    </message>
    <message>
        <source>Unknown cost</source>
        <translation>알 수 없는 비용</translation>
    </message>
</context>
<context>
    <name>bullpen::SpendPanel</name>
    <message>
        <source>Spend per provider over time</source>
        <translation>시간에 따른 제공자별 지출</translation>
    </message>
    <message>
        <source>not read yet</source>
        <translation>아직 읽지 않음</translation>
    </message>
    <message>
        <source>Spend could not be read: %1</source>
        <translation>지출을 읽을 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Spent in the range: %1. Added by fallbacks: %2.</source>
        <translation>이 기간의 지출: %1. 대체로 늘어난 비용: %2.</translation>
    </message>
    <message>
        <source>Attempts of unknown cost (no tokens reported, or no price), not counted: %1</source>
        <translation>비용을 알 수 없는 시도(토큰 보고 또는 가격 없음), 합계에서 제외: %1</translation>
    </message>
</context>
<context>
    <name>bullpen::TimelineWidget</name>
    <message>
        <source>Select a generation to see its timeline.</source>
        <translation>생성을 선택하면 타임라인이 보입니다.</translation>
    </message>
    <message>
        <source>queued (budget not started)</source>
        <translation>대기 중 (예산 시작 전)</translation>
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
        <source>&lt;b&gt;%1&lt;/b&gt; %2 · %3 · round %4</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; %2 · %3 · %4회차</translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation>성공</translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation>실패: %1</translation>
    </message>
    <message>
        <source> · HTTP %1</source>
        <translation> · HTTP %1</translation>
    </message>
    <message>
        <source> · no HTTP status</source>
        <translation> · HTTP 상태 없음</translation>
    </message>
    <message>
        <source> · aborted: %1</source>
        <translation> · 중단: %1</translation>
    </message>
    <message>
        <source>tokens in %1 / out %2</source>
        <translation>토큰 입력 %1 / 출력 %2</translation>
    </message>
    <message>
        <source>Storyboard budget: %1 for primary and fallback together, from %2</source>
        <translation>스토리보드 예산: 기본과 대체 제공자를 합쳐 %1, %2부터</translation>
    </message>
    <message>
        <source>ends at %1 →</source>
        <translation>%1에 끝남 →</translation>
    </message>
    <message>
        <source>deadline %1 →</source>
        <translation>마감 %1 →</translation>
    </message>
    <message>
        <source>fallback triggered</source>
        <translation>대체 호출 시작</translation>
    </message>
    <message>
        <source>%1 was not called: %2</source>
        <translation>제공자 %1 호출 안 함: %2</translation>
    </message>
    <message>
        <source>primary skipped</source>
        <translation>기본 제공자 건너뜀</translation>
    </message>
    <message>
        <source>budget %1</source>
        <translation>예산 %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; %2 · %3 · round %4&lt;br&gt;running</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; %2 · %3 · %4회차&lt;br&gt;실행 중</translation>
    </message>
    <message>
        <source> · deadline at %1</source>
        <translation> · 마감 %1</translation>
    </message>
    <message>
        <source>took %1</source>
        <translation>소요 %1</translation>
    </message>
</context>
<context>
    <name>bullpen::TunePanel</name>
    <message>
        <source>Predicted by primary timeout: p95, fallback rate, cost</source>
        <translation>기본 제한 시간별 예측: p95, 대체 비율, 비용</translation>
    </message>
    <message>
        <source>not read yet</source>
        <translation>아직 읽지 않음</translation>
    </message>
    <message>
        <source>A primary timeout and what the recorded attempts predict under it</source>
        <translation>기본 제한 시간과 기록된 시도로 예측한 결과</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>적용</translation>
    </message>
    <message>
        <source>Save the chosen primary timeout to the settings file (as the Settings view does)</source>
        <translation>고른 기본 제한 시간을 설정 파일에 저장(설정 화면과 같은 방식)</translation>
    </message>
    <message>
        <source>Settings line for the engine's file:</source>
        <translation>엔진 설정 파일에 넣을 줄:</translation>
    </message>
    <message>
        <source>Replaying the recorded attempts…</source>
        <translation>기록된 시도를 다시 계산하는 중…</translation>
    </message>
    <message>
        <source>The tuner could not read the history: %1</source>
        <translation>튜너가 기록을 읽을 수 없습니다: %1</translation>
    </message>
    <message>
        <source>No storyboard generations in this range: nothing to replay.</source>
        <translation>이 기간에 스토리보드 생성이 없어 다시 계산할 것이 없습니다.</translation>
    </message>
    <message>
        <source>p95 latency (s)</source>
        <translation>p95 지연 시간(s)</translation>
    </message>
    <message>
        <source>fallback rate (%)</source>
        <translation>대체 비율(%)</translation>
    </message>
    <message>
        <source>today: %1</source>
        <translation>현재 설정: %1</translation>
    </message>
    <message>
        <source>primary timeout (s)</source>
        <translation>기본 제한 시간(s)</translation>
    </message>
    <message>
        <source>p95 (s)</source>
        <translation>p95(s)</translation>
    </message>
    <message>
        <source>fallback %</source>
        <translation>대체 %</translation>
    </message>
    <message>
        <source>%1 generations replayed (%2 – %3). Recorded: p95 %4, fallback %5 %. Censored: predictions that wait longer than a recorded timeout rest on answers that took longer; their count is named.</source>
        <translation>다시 계산한 생성 수: %1 (%2 – %3). 기록: p95 %4, 대체 %5 %. 중도 절단: 기록된 제한 시간보다 오래 기다리는 예측은 더 오래 걸린 응답에 기대며, 그 수를 표시합니다.</translation>
    </message>
    <message>
        <source>Apply %1</source>
        <translation>적용: %1</translation>
    </message>
    <message>
        <source>cost (no priced attempts)</source>
        <translation>비용(가격이 매겨진 시도 없음)</translation>
    </message>
    <message>
        <source>cost (%1)</source>
        <translation>비용(%1)</translation>
    </message>
    <message>
        <source>cost (%1 added up, not converted)</source>
        <translation>비용(%1 환산 없이 합산)</translation>
    </message>
    <message>
        <source>Cost: no attempt in this range has a known cost (no tokens reported, or no price).</source>
        <translation>비용: 이 기간에는 비용을 아는 시도가 없습니다(토큰 보고 또는 가격 없음).</translation>
    </message>
    <message>
        <source>Cost in %1: what the replayed attempts' recorded costs add up to, at the providers' prices.</source>
        <translation>비용(통화 %1): 다시 계산한 시도들의 기록된 비용을 제공자 가격으로 합한 값입니다.</translation>
    </message>
    <message>
        <source>Cost: the recorded costs are in %1 and are added up as they are, not converted; compare candidates with each other, not with a budget. Give every provider's price in one currency to read it as money.</source>
        <translation>비용: 기록된 비용의 통화: %1. 환산 없이 그대로 합산합니다. 후보끼리만 비교하고 예산과는 비교하지 마십시오. 금액으로 읽으려면 모든 제공자의 가격을 한 통화로 지정하십시오.</translation>
    </message>
    <message>
        <source>%1: p95 %2 · fallback %3 % · success %4 % · cost %5 %6 · censored %7</source>
        <translation>%1 · p95 %2 · 대체 %3 % · 성공 %4 % · 비용 %5 %6 · 중도 절단 %7</translation>
    </message>
    <message>
        <source>Today's timeouts with the breaker replayed on and off, in the order the generations started, and under the other preset. Unobserved: predictions that call a primary the record skipped (stood in by the nearest earlier recorded one) or assume a capacity marker the record does not keep.</source>
        <translation>오늘의 제한 시간으로, 생성이 시작된 순서대로 차단기를 켜고 끈 채 다시 계산한 결과와 다른 프리셋의 결과입니다. 미관측: 기록에서 건너뛴 기본 호출을 하는 예측(그보다 앞선 가장 가까운 기록으로 대신함) 또는 기록에 남지 않는 용량 표시를 가정한 예측입니다.</translation>
    </message>
    <message>
        <source>breaker on</source>
        <translation>차단기 켬</translation>
    </message>
    <message>
        <source>breaker off</source>
        <translation>차단기 끔</translation>
    </message>
    <message>
        <source>%1, %2: p50 %3 · p95 %4 · fallback %5 % · success %6 % · cost %7 · unobserved %8%9</source>
        <translation>%1, %2 · p50 %3 · p95 %4 · 대체 %5 % · 성공 %6 % · 비용 %7 · 미관측 %8%9</translation>
    </message>
    <message>
        <source> (today)</source>
        <translation> (오늘)</translation>
    </message>
</context>
<context>
    <name>bullpen::charts</name>
    <message>
        <source>(none)</source>
        <translation>(없음)</translation>
    </message>
    <message>
        <source>Click a bar to filter the table by it</source>
        <translation>막대를 누르면 표가 그 값으로 걸러집니다</translation>
    </message>
    <message>
        <source>not read yet</source>
        <translation>아직 읽지 않음</translation>
    </message>
    <message>
        <source>paused · updated %1</source>
        <translation>일시 정지 · %1에 갱신</translation>
    </message>
    <message>
        <source>updated %1</source>
        <translation>%1에 갱신</translation>
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
        <source>%1 min</source>
        <translation>%1분</translation>
    </message>
</context>
<context>
    <name>bullpen::words</name>
    <message>
        <source>running</source>
        <translation>실행 중</translation>
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
        <source>generation started</source>
        <translation>생성 시작</translation>
    </message>
    <message>
        <source>generation finished</source>
        <translation>생성 끝</translation>
    </message>
    <message>
        <source>late answer discarded</source>
        <translation>늦은 응답 버림</translation>
    </message>
    <message>
        <source>attempt started</source>
        <translation>시도 시작</translation>
    </message>
    <message>
        <source>attempt ended</source>
        <translation>시도 끝</translation>
    </message>
    <message>
        <source>fallback called</source>
        <translation>대체 호출</translation>
    </message>
    <message>
        <source>retry scheduled</source>
        <translation>재시도 예약</translation>
    </message>
    <message>
        <source>primary skipped</source>
        <translation>기본 제공자 건너뜀</translation>
    </message>
    <message>
        <source>queued</source>
        <translation>대기</translation>
    </message>
    <message>
        <source>admitted</source>
        <translation>시작 허용</translation>
    </message>
</context>
</TS>