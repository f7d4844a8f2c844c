// SPDX-License-Identifier: MIT
// What each fault looks like through each official SDK on the real API (docs/simulator-fidelity.md).
// An outcome is one line: "ok <finish> usage" or "error <Class> <status>".

export function describeOutcome(provider, o) {
    if (o.stillWaiting) return 'still-waiting';
    if (o.error) return `error ${o.error.cls} ${o.error.status ?? '-'}`;
    if (o.block) return `blocked ${o.block}`;
    if (o.refusal) return `refusal ${o.finish}`;
    const usage = o.usage === null || o.usage === undefined ? 'no-usage' : 'usage';
    const text = o.text ? 'text' : 'no-text';
    return `ok ${o.finish} ${text} ${usage}`;
}

const OK = { gemini: 'ok STOP text usage', qwen: 'ok stop text usage', openai: 'ok stop text usage', anthropic: 'ok end_turn text usage' };
const TRUNCATED = { gemini: 'ok MAX_TOKENS text usage', qwen: 'ok length text usage', openai: 'ok length text usage', anthropic: 'ok max_tokens text usage' };
// The SDK's own timeout: OpenAI's and Anthropic's raise APIConnectionTimeoutError; @google/genai aborts
// its fetch (a DOMException, code 20).
const TIMEOUT = { gemini: 'error DOMException 20', qwen: 'error APIConnectionTimeoutError -', openai: 'error APIConnectionTimeoutError -', anthropic: 'error APIConnectionTimeoutError -' };
const OVERLOADED = { gemini: 'error ApiError 503', qwen: 'error InternalServerError 503', openai: 'error InternalServerError 503', anthropic: 'error OverloadedError 529' };
// A connection closed mid-body: undici's "terminated" TypeError reaches the caller unwrapped, except
// from the Anthropic SDK's stream helper, which wraps it.

// Faults as the SDK sees them; streaming differs where the fault lives in the stream.
export function expected(scenario, provider, stream) {
    // The provider under test plays the primary (bullpen-sim --primary P --fallback none).
    switch (scenario) {
    case 'healthy':
    case 'instant': // healthy without latency
    case 'primary-invalid-storyboard': // valid JSON text, wrong storyboard: a wire-level success
    case 'primary-outage': // healthy until 10 s after its first request: this check's calls all come before
        return OK[provider];
    case 'primary-truncated':
        return TRUNCATED[provider];
    case 'primary-hang':
        return TIMEOUT[provider];
    case 'primary-slow-drip':
        // The answer starts at once and then drips: OpenAI's and Anthropic's timeouts end at the response
        // head, so those SDKs are still waiting long after it; @google/genai's covers the body and aborts.
        return provider === 'gemini' ? TIMEOUT.gemini : 'still-waiting';
    case 'primary-overloaded':
    case 'both-down':
    case 'fallback-hang': // the primary is overloaded (only the fallback provider hangs)
        return OVERLOADED[provider];
    case 'primary-rate-limited':
        return { gemini: 'error ApiError 429', qwen: 'error RateLimitError 429', openai: 'error RateLimitError 429', anthropic: 'error RateLimitError 429' }[provider];
    case 'primary-auth':
        return { gemini: 'error ApiError 400', qwen: 'error AuthenticationError 401', openai: 'error AuthenticationError 401', anthropic: 'error AuthenticationError 401' }[provider];
    case 'primary-auth-echo':
        return { gemini: 'error ApiError 400', qwen: 'error AuthenticationError 401', openai: 'error AuthenticationError 401', anthropic: 'error AuthenticationError 401' }[provider];
    case 'primary-refused':
        return { gemini: 'blocked SAFETY', qwen: 'error BadRequestError 400', openai: 'refusal stop', anthropic: 'ok refusal no-text usage' }[provider];
    case 'primary-reset':
        return { gemini: 'error TypeError -', qwen: 'error APIConnectionError -', openai: 'error APIConnectionError -', anthropic: 'error APIConnectionError -' }[provider];
    case 'primary-malformed':
        // Broken JSON in the provider's own event (or body); the Anthropic stream helper wraps the SyntaxError.
        return provider === 'anthropic' && stream ? 'error AnthropicError -' : 'error SyntaxError -';
    case 'primary-stream-cut':
        return provider === 'anthropic' && stream ? 'error AnthropicError -' : 'error TypeError -';
    case 'primary-stream-error':
        // In a stream the error arrives as an event after a 200: no HTTP status, the provider's code.
        return stream
            ? { gemini: 'error ApiError 503', qwen: 'error APIError ModelUnavailable', openai: 'error APIError server_is_overloaded', anthropic: 'error APIError -' }[provider]
            : OVERLOADED[provider];
    case 'flaky':
        return null; // random by design: checked for one request per call only
    default:
        return `unknown scenario ${scenario}`;
    }
}
