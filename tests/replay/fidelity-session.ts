// A small recorded session whose working set is known by construction, for the fidelity tests: three
// user asks, seven large reads whose results carry distinctive facts, and three closing replies that
// quote them. Replayed at FIDELITY_WINDOW with immediate scheduling, pi-fold folds each read batch
// once newer ones push it out, then folds the first chapter whole: what each reply's request still
// shows is worked out message by message in replay-fidelity.test.ts. Written as a Pi session file
// (version 3), each reply billed as a fresh prompt of the characters before it.

import type { TranscriptMessage } from "../../src/transcript/index.ts";

/** The window the session is replayed at (pi-fold's limit is FIDELITY_WINDOW less FIDELITY_MAX_OUTPUT). */
export const FIDELITY_WINDOW = 16_000;
export const FIDELITY_MAX_OUTPUT = 2_048;
export const FIDELITY_PRICES = { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 1 };

/** Filler a read returns after its facts: about 6,000 tokens, no fact-shaped token in it. */
const FILLER = "plain filler words for the window\n".repeat(700);

const user = (text: string): TranscriptMessage => ({ role: "user", content: [{ type: "text", text }] });
const read = (id: string, path: string): TranscriptMessage =>
	({
		role: "assistant",
		content: [{ type: "toolCall", id, name: "read", arguments: { path } }],
		stopReason: "toolUse",
	}) as TranscriptMessage;
const result = (id: string, text: string): TranscriptMessage => ({
	role: "toolResult",
	toolCallId: id,
	toolName: "read",
	content: [{ type: "text", text: `${text}\n${FILLER}` }],
	isError: false,
});
const say = (text: string): TranscriptMessage =>
	({ role: "assistant", content: [{ type: "text", text }], stopReason: "stop" }) as TranscriptMessage;

export const ASKS = [
	"Please audit the widget registry module and list every registry key you find in it.",
	"Now look at the loader module and tell me what it does with these keys.",
	"Check the tests folder too and summarize what they cover for the registry keys.",
];

/** The session's messages; the comments give each one's index. */
export function fidelityMessages(): TranscriptMessage[] {
	return [
		user(ASKS[0] as string), // 0
		read("c1", "src/registry.ts"), // 1 (reply 1)
		result(
			"c1",
			"export const fooRegistryAlpha = 1;\nexport const barRegistryBeta = 2; // see src/registry_helpers.ts",
		), // 2
		say("The registry exports `fooRegistryAlpha` among others."), // 3 (reply 2)
		user(ASKS[1] as string), // 4
		read("c2", "src/loader.ts"), // 5 (reply 3)
		result("c2", 'import { load } from "./registry";\nexport function loadRegistryGamma() {}'), // 6
		read("c3", "src/cache.ts"), // 7 (reply 4)
		result("c3", "export const cacheSizeLimit = 40960;"), // 8
		read("c4", "src/registry_helpers.ts"), // 9 (reply 5)
		result("c4", "export const helperDelta = 7;"), // 10
		say("Done: `loadRegistryGamma` reads fooRegistryAlpha and barRegistryBeta; the cache holds 40960 entries."), // 11 (reply 6)
		user(ASKS[2] as string), // 12
		read("c5", "tests/registry.test.ts"), // 13 (reply 7)
		result("c5", 'test("epsilonKey_check")\ntest("epsilon keys stay sorted")'), // 14
		read("c6", "tests/loader.test.ts"), // 15 (reply 8)
		result("c6", 'test("zetaKey_check")'), // 16
		read("c7", "tests/cache.test.ts"), // 17 (reply 9)
		result("c7", 'test("etaKey_check")'), // 18
		say(
			'Tests: fooRegistryAlpha, src/registry_helpers.ts, epsilonKey_check, loadRegistryGamma, 40960; "epsilon keys stay sorted".',
		), // 19 (reply 10)
	];
}

/** `messages` as a Pi session file's text (version 3, one branch, a second between messages). */
export function sessionText(messages: readonly TranscriptMessage[]): string {
	const line = (o: Record<string, unknown>) => JSON.stringify(o);
	const entries: string[] = [line({ type: "session", version: 3, id: "fidelity", cwd: "/w" })];
	let parent: string | null = null;
	let chars = 0;
	messages.forEach((message, i) => {
		const id = `e${i + 1}`;
		const cacheWrite = Math.ceil(chars / 4);
		const usage =
			message.role === "assistant" ? { usage: { input: 0, output: 10, cacheRead: 0, cacheWrite, totalTokens: 0 } } : {};
		const timestamp = 1_000 * (i + 1);
		entries.push(
			line({
				type: "message",
				id,
				parentId: parent,
				timestamp: new Date(timestamp).toISOString(),
				message: { timestamp, ...message, ...usage },
			}),
		);
		chars += JSON.stringify(message).length;
		parent = id;
	});
	return `${entries.join("\n")}\n`;
}
