// A simulated session: one linear branch of Pi-shaped entries in memory, and the runtime `Host` over
// it (the branch view, decision records appended as custom entries, an optional agent directory for
// the records' key, a model with a window and prices, a clock the caller controls, briefs from a writer the caller supplies, notices collected).
// Boundary drafts are applied the way Pi applies them. No Pi, no files (the fold store is the
// caller's). Pure in-memory apart from the store.

import { deterministicBrief } from "../briefs/index.ts";
import type { BriefedKind } from "../lattice/index.ts";
import {
	type BoundaryDraft,
	type BriefOut,
	branchViewOf,
	type Host,
	type ModelInfo,
	recordsOf,
} from "../runtime/index.ts";
import type { TranscriptEntry, TranscriptMessage } from "../transcript/index.ts";
import type { SimEntry } from "./entries.ts";
import { contextEntries, messageOf, projectedMessages, toLlm } from "./pi-projection.ts";

/** Names the simulated session uses for pi-fold's own entries (a runtime's `names` and `receiptType`). */
interface SimNames {
	readonly decisionEntryType: string;
	readonly receiptType: string;
}

interface SimSessionOptions {
	readonly id?: string;
	/** The model the host describes (window, output cap, prices). */
	readonly model: ModelInfo;
	readonly systemPrompt?: string;
	/** Writes ladder chapter, span and consolidation briefs from `shown`, the span as the window shows it (default: the deterministic brief). */
	readonly writeBrief?: (
		leaves: readonly TranscriptEntry[],
		kind: BriefedKind,
		shown?: readonly TranscriptEntry[],
	) => Promise<BriefOut>;
	/** The clock (default: a counter the caller advances with `advance`). */
	readonly now?: () => number;
	/** The agent directory holding the records' key (default none: a key that lives only in this process). */
	readonly agentDir?: string;
	/** The working directory folded file reads resolve against (default: the process's). */
	readonly cwd?: string;
}

/** The original message an entry adds to the foldable transcript (system messages are not part of it). */
function transcriptMessageOf(entry: SimEntry, index: number): TranscriptMessage | undefined {
	const message = messageOf(entry, index);
	return message?.role === "system" ? undefined : message;
}

export class SimSession {
	readonly entries: SimEntry[] = [];
	readonly notices: { message: string; level: string }[] = [];
	readonly id: string;
	private nextId = 1;
	private clock = 0;
	private readonly options: SimSessionOptions;
	/** The model in force (a switch to another model, `setModel`, replaces it). */
	private model: ModelInfo;

	constructor(options: SimSessionOptions) {
		this.model = options.model;
		this.options = options;
		this.id = options.id ?? "sim-session";
	}

	/** Advances the default clock by `ms`. */
	advance(ms: number): void {
		this.clock += ms;
	}

	private newId(): string {
		return `s${(this.nextId++).toString(16).padStart(7, "0")}`;
	}

	/** Appends a message entry (with `id`, when replaying a recorded one); returns its id. */
	appendMessage(message: TranscriptMessage, id?: string): string {
		const entryId = id ?? this.newId();
		this.entries.push({ type: "message", id: entryId, message });
		return entryId;
	}

	/** Appends any entry whose id the caller chose (a recorded session's, for instance). */
	appendEntry(entry: SimEntry): void {
		this.entries.push(entry);
	}

	/** Appends a native compaction entry (Pi's `appendCompaction`); returns its id. */
	appendCompaction(summary: string, firstKeptEntryId: string, tokensBefore: number): string {
		const id = this.newId();
		this.entries.push({ type: "compaction", id, summary, firstKeptEntryId, tokensBefore });
		return id;
	}

	/** Applies boundary drafts in order, as Pi does (each becomes an entry on the branch). */
	applyDrafts(drafts: readonly BoundaryDraft[]): void {
		for (const d of drafts) {
			const id = this.newId();
			if (d.type === "context_edit")
				this.entries.push({ type: "context_edit", id, targetId: d.targetId, replacement: d.replacement });
			else if (d.type === "custom") this.entries.push({ type: "custom", id, customType: d.customType, data: d.data });
			else
				this.entries.push({
					type: "custom_message",
					id,
					customType: d.customType,
					content: d.content,
					display: d.display,
				});
		}
	}

	/** The conversation the next request carries, as Pi's `context` hook sees it (agent messages, no system prompt). */
	contextMessages(): TranscriptMessage[] {
		return projectedMessages(this.entries).filter((m) => m.role !== "system");
	}

	/** The request as Pi's `context_with_system` hook sees it: the system head (the prompt), then the conversation. */
	requestMessages(): TranscriptMessage[] {
		return [{ role: "system", content: this.options.systemPrompt ?? "" }, ...this.contextMessages()];
	}

	/** The same conversation as the provider sees it (Pi's convertToLlm): what a boundary previews. */
	llmMessages(): TranscriptMessage[] {
		return toLlm(projectedMessages(this.entries));
	}

	/** Switches the session to another model (a smaller window: the human's model switch, a resume on it). */
	setModel(model: ModelInfo): void {
		this.model = model;
	}

	/** The runtime's host over this session; `names` are the runtime's entry types. */
	host(names: SimNames): Host {
		return {
			readBranch: () =>
				branchViewOf({
					leafId: this.entries.at(-1)?.id ?? null,
					branch: this.entries,
					context: contextEntries(this.entries).map((entry, i) => ({ entry, message: transcriptMessageOf(entry, i) })),
					decisionType: names.decisionEntryType,
					receiptType: names.receiptType,
				}),
			branchRecords: () => recordsOf(this.entries, names.decisionEntryType),
			compactionCount: () => this.entries.filter((e) => e.type === "compaction").length,
			appendRecord: (record) =>
				this.entries.push({ type: "custom", id: this.newId(), customType: names.decisionEntryType, data: record }),
			session: () => ({ id: this.id, dir: undefined }),
			agentDir: () => this.options.agentDir,
			model: () => this.model,
			contextTokens: () => null,
			systemPrompt: () => this.options.systemPrompt ?? "",
			cwd: () => this.options.cwd ?? process.cwd(),
			writeBrief:
				this.options.writeBrief ??
				(async (leaves) => ({ brief: deterministicBrief(leaves), source: "deterministic" as const })),
			notify: (message, level) => void this.notices.push({ message, level }),
			now: this.options.now ?? (() => this.clock),
		};
	}
}
