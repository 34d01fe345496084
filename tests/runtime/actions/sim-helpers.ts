// A simulated session for action tests: a FoldRuntime over a SimSession and a MemoryStore (no Pi, no
// files), with helpers to append entries, fold spans through the tool and commit them at a boundary.

import { resolveOptions } from "../../../src/options/index.ts";
import { callTool, FoldRuntime, type Host } from "../../../src/runtime/index.ts";
import { MemoryStore, SimSession } from "../../../src/simulate/index.ts";
import type { TranscriptEntry } from "../../../src/transcript/index.ts";
import { reply, user } from "../../helpers/entries.ts";

export interface SimFixture {
	readonly runtime: FoldRuntime;
	readonly session: SimSession;
	readonly store: MemoryStore;
	readonly host: Host;
	append(entries: readonly TranscriptEntry[]): void;
	/** Appends `n` user/reply pairs so what came before leaves the fresh tail. */
	pad(n?: number): void;
	/** Folds from..to through the tool and commits it; returns the fold id. */
	fold(from: string, to: string, brief?: string): Promise<string>;
	call(args: Record<string, unknown>): ReturnType<typeof callTool>;
}

let padding = 0;

export function simFixture(cwd?: string): SimFixture {
	const store = new MemoryStore();
	const runtime = new FoldRuntime(
		resolveOptions({ foldScheduling: "immediate", summarizer: "deterministic" }),
		() => store,
	);
	const session = new SimSession({ model: { contextWindow: 400_000, maxTokens: 8_192 }, ...(cwd ? { cwd } : {}) });
	const host = session.host({ decisionEntryType: runtime.names.decisionEntryType, receiptType: runtime.receiptType });
	runtime.rebuild(host, "test");
	const fixture: SimFixture = {
		runtime,
		session,
		store,
		host,
		append(entries) {
			for (const e of entries) session.appendMessage(e.message, e.id);
		},
		pad(n = 8) {
			for (let i = 0; i < n; i++) {
				const k = padding++;
				fixture.append([user(`pad-u${k}`, `padding question ${k}`), reply(`pad-a${k}`, `padding answer ${k}`)]);
			}
		},
		async fold(from, to, brief) {
			const result = await callTool(runtime, host, { action: "fold", from, to, ...(brief ? { brief } : {}) }, "agent");
			if (result.isError) throw new Error(result.text);
			const drafts = await runtime.boundary(host, "turn_end");
			if (drafts) session.applyDrafts(drafts);
			return String(result.details.id);
		},
		call: (args) => callTool(runtime, host, args, "agent"),
	};
	return fixture;
}
