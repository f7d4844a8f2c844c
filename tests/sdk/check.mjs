// SPDX-License-Identifier: MIT
// The official provider SDKs against bullpen-sim: for every built-in scenario, every provider
// as the failing one, streaming and not, one SDK call with the SDK's own retries off. The outcome the SDK
// reports (its error class and status, or text + finish reason + usage) must be what the same fault
// produces on the real API (docs/simulator-fidelity.md), and every call must reach the simulator exactly
// once (its /_sim/counters).
//
//   node tests/sdk/check.mjs <path to bullpen-sim> [--print] [--only scenario[,scenario]]
// Exit 0: every case matched. 1: a mismatch (each one printed). 2: could not run.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import OpenAI, { AzureOpenAI } from 'openai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';

const [simPath, ...rest] = process.argv.slice(2);
if (!simPath) {
    console.error('usage: node check.mjs <bullpen-sim> [--print] [--only a,b]');
    process.exit(2);
}
const printOnly = rest.includes('--print');
const onlyAt = rest.indexOf('--only');
const only = onlyAt >= 0 ? new Set(rest[onlyAt + 1].split(',')) : null;

const KEY = 'sdk-check-key';
const TIMEOUT_MS = 1500; // the SDK's own timeout: hanging and dripping faults end here
const STORY = 'Story:\nMina finds a key. "Whose is it?" she asks. A cat meows at the door. They open it together.';

// --- the simulator, one process per (scenario, failing provider)
// Providers a deployment adds (docs/configuration.md, "Providers"), served by bullpen-sim --provider-file:
// a local vLLM that takes no key, and Azure OpenAI (api-key header, api-version query, deployment URL).
// The openai package must see from them what it sees from openai itself.
const ADDED = [
    { id: 'local-vllm', name: 'Local vLLM', format: 'openai', base_url: 'http://10.0.0.5:8000/v1', model: 'Qwen/Qwen2.5-7B-Instruct' },
    { id: 'azure', name: 'Azure OpenAI', format: 'openai', base_url: 'https://contoso.openai.azure.com/openai/deployments/storyboard',
      model: 'storyboard', key_variable: 'AZURE_OPENAI_API_KEY', auth_header: 'api-key', query: { 'api-version': '2024-10-21' } },
];
const providerFile = join(mkdtempSync(join(tmpdir(), 'bullpen-sdk-')), 'providers.json');
writeFileSync(providerFile, JSON.stringify({ providers: ADDED }));
const AS_WIRE = { 'local-vllm': 'openai', azure: 'openai' }; // whose real API's outcomes they must match

async function startSim(scenario, primary) {
    const child = spawn(simPath, ['--port', '0', '--scenario', scenario, '--primary', primary, '--fallback', 'none',
                                  '--provider-file', providerFile], {
        stdio: ['ignore', 'pipe', 'pipe'],
    });
    const urls = {};
    const lines = createInterface({ input: child.stdout });
    await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`bullpen-sim did not start for ${scenario}`)), 10000);
        lines.on('line', (line) => {
            const [name, url] = line.trim().split('\t');
            if (url) urls[name] = url;
            if (name === 'counters') {
                clearTimeout(timer);
                resolve();
            }
        });
        child.on('exit', (code) => reject(new Error(`bullpen-sim exited with ${code}`)));
    });
    return { child, urls };
}

async function counters(urls) {
    const r = await fetch(urls.counters);
    return r.json();
}

// --- one SDK call per provider, normalised to { error: {cls, status}, } or { text, finish, usage }
function describeError(e) {
    return { cls: e?.constructor?.name ?? typeof e, status: e?.status ?? e?.code ?? null, message: String(e?.message ?? e).slice(0, 160) };
}

async function callOpenAICompatible(baseURL, model, stream, azure = null) {
    const client = azure ?? new OpenAI({ apiKey: KEY, baseURL, maxRetries: 0, timeout: TIMEOUT_MS });
    const body = { model, messages: [{ role: 'user', content: STORY }] };
    if (!stream) {
        const r = await client.chat.completions.create(body);
        const c = r.choices[0];
        return { text: c.message.content ?? '', refusal: c.message.refusal ?? null, finish: c.finish_reason, usage: r.usage?.completion_tokens ?? null, created: r.created };
    }
    const s = await client.chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } });
    let text = '', finish = null, usage = null, refusal = null, created = null;
    for await (const chunk of s) {
        created = chunk.created ?? created;
        for (const c of chunk.choices) {
            text += c.delta?.content ?? '';
            if (c.delta?.refusal) refusal = (refusal ?? '') + c.delta.refusal;
            if (c.finish_reason) finish = c.finish_reason;
        }
        if (chunk.usage) usage = chunk.usage.completion_tokens;
    }
    return { text, refusal, finish, usage, created };
}

async function callAzure(baseURL, stream) {
    // AzureOpenAI builds <endpoint>/openai/deployments/<model>/chat/completions?api-version=… and sends api-key.
    const endpoint = baseURL.replace(/\/openai\/deployments\/storyboard$/, '');
    const client = new AzureOpenAI({ apiKey: KEY, endpoint, apiVersion: '2024-10-21', maxRetries: 0, timeout: TIMEOUT_MS });
    return callOpenAICompatible(null, 'storyboard', stream, client);
}

async function callAnthropic(baseURL, model, stream) {
    // The SDK's base URL is the host: it adds /v1/messages itself.
    const client = new Anthropic({ apiKey: KEY, baseURL: baseURL.replace(/\/v1$/, ''), maxRetries: 0, timeout: TIMEOUT_MS });
    const body = { model, max_tokens: 2048, messages: [{ role: 'user', content: STORY }] };
    if (!stream) {
        const r = await client.messages.create(body);
        return { text: r.content.filter((b) => b.type === 'text').map((b) => b.text).join(''), finish: r.stop_reason, usage: r.usage.output_tokens };
    }
    const s = client.messages.stream(body);
    const r = await s.finalMessage();
    return { text: r.content.filter((b) => b.type === 'text').map((b) => b.text).join(''), finish: r.stop_reason, usage: r.usage.output_tokens };
}

async function callGemini(baseURL, model, stream) {
    const ai = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: baseURL.replace(/\/v1beta$/, ''), timeout: TIMEOUT_MS } });
    const body = { model, contents: STORY };
    if (!stream) {
        const r = await ai.models.generateContent(body);
        return { text: r.text ?? '', finish: r.candidates?.[0]?.finishReason ?? null, usage: r.usageMetadata?.candidatesTokenCount ?? null, block: r.promptFeedback?.blockReason ?? null };
    }
    const s = await ai.models.generateContentStream(body);
    let text = '', finish = null, usage = null, block = null;
    for await (const chunk of s) {
        text += chunk.text ?? '';
        finish = chunk.candidates?.[0]?.finishReason ?? finish;
        usage = chunk.usageMetadata?.candidatesTokenCount ?? usage;
        block = chunk.promptFeedback?.blockReason ?? block;
    }
    return { text, finish, usage, block };
}

const MODELS = { gemini: 'gemini-2.5-flash', qwen: 'qwen-plus', openai: 'gpt-5-mini', anthropic: 'claude-sonnet-4-6',
                 'local-vllm': 'Qwen/Qwen2.5-7B-Instruct' };

async function call(provider, urls, stream) {
    const url = urls[provider];
    switch (provider) {
    case 'gemini': return callGemini(url, MODELS.gemini, stream);
    case 'anthropic': return callAnthropic(url, MODELS.anthropic, stream);
    case 'azure': return callAzure(url, stream);
    default: return callOpenAICompatible(url, MODELS[provider], stream);
    }
}

// --- what the real API does for each fault, as each SDK reports it
import { expected, describeOutcome } from './expected.mjs';

const scenarios = (await new Promise((resolve, reject) => {
    const child = spawn(simPath, ['--list'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error('bullpen-sim --list failed'))));
})).split('\n').map((l) => l.split('\t')[0]).filter((n) => n && (!only || only.has(n)));

const providers = ['gemini', 'qwen', 'openai', 'anthropic', ...ADDED.map((p) => p.id)];
let mismatches = 0, cases = 0;
const rows = [];
for (const scenario of scenarios) {
    for (const provider of providers) {
        const { child, urls } = await startSim(scenario, provider);
        try {
            for (const stream of [false, true]) {
                const before = (await counters(urls))[provider]?.requests ?? 0;
                // A call still running well after the SDK's own timeout is an outcome too: that SDK would
                // wait on (a dripping body). Recorded, not waited out.
                let outcome;
                let watchdog;
                try {
                    outcome = await Promise.race([
                        call(provider, urls, stream),
                        new Promise((resolve) => (watchdog = setTimeout(() => resolve({ stillWaiting: true }), 2 * TIMEOUT_MS + 1000))),
                    ]);
                } catch (e) {
                    outcome = { error: describeError(e) };
                } finally {
                    clearTimeout(watchdog);
                }
                const after = (await counters(urls))[provider]?.requests ?? 0;
                const requests = after - before;
                const wire = AS_WIRE[provider] ?? provider;
                const got = describeOutcome(wire, outcome);
                const want = expected(scenario, wire, stream);
                const ok = (want === null || want === got) && requests === 1;
                ++cases;
                if (!ok) ++mismatches;
                rows.push({ scenario, provider, stream, got, want, requests, ok, detail: outcome.error?.message });
            }
        } finally {
            child.kill();
        }
    }
}

const pad = (s, n) => String(s).padEnd(n);
console.log(`${pad('scenario', 28)}${pad('provider', 11)}${pad('stream', 8)}${pad('requests', 10)}SDK outcome`);
for (const r of rows) {
    const mark = printOnly ? '' : r.ok ? '' : `   <-- expected ${r.want}${r.requests !== 1 ? `, 1 request` : ''}${r.detail ? ` (${r.detail})` : ''}`;
    console.log(`${pad(r.scenario, 28)}${pad(r.provider, 11)}${pad(r.stream ? 'yes' : 'no', 8)}${pad(r.requests, 10)}${r.got}${mark}`);
}
console.log(`${cases} cases, ${cases - mismatches} matched, ${mismatches} mismatched`);
process.exit(printOnly ? 0 : mismatches === 0 ? 0 : 1);
