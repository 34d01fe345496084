// A window's hold on the working set (working-set.ts), request by request: each fact a reply used is
// **raw** when an original message the window shows unedited holds it, **named** when only text that
// is not an original holds it (pi-fold's briefs, placeholders, excerpts and notes, a recall's search
// result, a compaction summary), **missing** otherwise; each earlier user message's opening likewise
// (raw, paraphrased, gone). The window is read from the simulated session's entries as Pi projects
// them (the latest compaction, its kept entries, the latest context edit per target). A text that is
// not an original is searched once, the first time a window shows it; a path it writes in a
// directory's brace group ("pkg/dist/{a.js,b.js}") counts as named. Pure.

import { contextEntries, messageOf, type SimEntry } from "../simulate/index.ts";
import type { TranscriptMessage } from "../transcript/index.ts";
import { fullText } from "./fidelity-facts.ts";
import type { WorkingSetPlan } from "./working-set.ts";

/** A directory's paths written once ("pkg/dist/{a.js,b.js}", as a shell expands braces). */
const PATH_GROUP = /(\/?(?:[\w.@+-]+\/)+)\{([\w.@+-]+(?:,[\w.@+-]+)+)\}/g;

/**
 * `text` followed by every path its brace groups stand for: a brief or index that writes a
 * directory's files once ("pkg/dist/{a.js,b.js}") names each of them, as a reader takes it.
 */
export function withGroupedPaths(text: string): string {
	if (!text.includes("{")) return text;
	const paths: string[] = [];
	for (const m of text.matchAll(PATH_GROUP))
		for (const base of (m[2] as string).split(",")) paths.push(`${m[1]}${base}`);
	return paths.length === 0 ? text : `${text}\n${paths.join("\n")}`;
}

/** Roles a context edit replaces (Pi's projection leaves the others as they are). */
const EDITABLE = new Set(["user", "assistant", "toolResult", "custom"]);

/** What one request's window holds: the originals it shows unedited, and the other texts it shows. */
export interface WindowView {
	/** Indices (among the replayed messages) of the originals shown unedited. */
	readonly raw: readonly number[];
	/** Everything else shown: `key` is stable while the text is (the edit, the entry). */
	readonly named: readonly { readonly key: object; readonly text: () => string }[];
	/** Messages the window sends (the conversation, no system prompt). */
	readonly size: number;
}

/** Per edit: whether it restores its target's own content (pi-fold's expand), so the window shows the original. */
const restoring = new WeakMap<object, boolean>();
function restores(edit: object, replacement: unknown, original: unknown): boolean {
	const same =
		restoring.get(edit) ?? (replacement === original || JSON.stringify(replacement) === JSON.stringify(original));
	restoring.set(edit, same);
	return same;
}

/**
 * The window `entries` project to. `originalOf` gives a message or custom-message entry's index
 * among the replayed messages when the entry carries that original as recorded, else undefined.
 */
export function windowView(entries: readonly SimEntry[], originalOf: (entry: SimEntry) => number | undefined) {
	const context = contextEntries(entries);
	const edits = new Map<string, Extract<SimEntry, { type: "context_edit" }>>();
	for (const e of context) if (e.type === "context_edit") edits.set(e.targetId, e);
	const raw: number[] = [];
	const named: { key: object; text: () => string }[] = [];
	context.forEach((entry, i) => {
		const message = messageOf(entry, i);
		if (!message) return;
		const edit = edits.get(entry.id);
		if (edit && EDITABLE.has(message.role)) {
			const replacement = edit.replacement;
			if (replacement === null) return;
			const original = originalOf(entry);
			if (original !== undefined && restores(edit, replacement.content, message.content)) {
				raw.push(original);
				return;
			}
			const edited = { ...message, content: replacement.content } as TranscriptMessage;
			named.push({ key: edit, text: () => withGroupedPaths(fullText(edited)) });
			return;
		}
		const original = originalOf(entry);
		if (original !== undefined) raw.push(original);
		else named.push({ key: entry, text: () => withGroupedPaths(fullText(message)) });
	});
	return { raw, named, size: raw.length + named.length } satisfies WindowView;
}

/** How one window series (pi-fold's, or the session's as it ran) held the working set. */
export interface WorkingSetFigures {
	/** Facts the replies used from earlier tool results (a fact counted once per reply using it). */
	readonly facts: number;
	readonly raw: number;
	readonly named: number;
	readonly missing: number;
	/** Replies (1-based, as in the session) whose request lacked at least one of its facts: each would need a recall. */
	readonly recalls: readonly number[];
	readonly users: {
		/** The user's messages of 40+ characters. */
		readonly messages: number;
		/** Requests with at least one of them earlier. */
		readonly requests: number;
		/** Lookups: each of them at each later request, once. */
		readonly lookups: number;
		/** Of the lookups, those that found the opening raw, only in other text (paraphrased), or nowhere. */
		readonly raw: number;
		readonly paraphrased: number;
		readonly gone: number;
	};
}

/** Tallies the windows of one series, request by request. */
export class WorkingSetTally {
	private readonly plan: WorkingSetPlan;
	/** Per replayed message: the request that last showed it raw. */
	private readonly rawAt: Int32Array;
	/** Per needle: the request that last showed it in other text. */
	private readonly namedAt: Int32Array;
	/** The needles each non-original text holds, searched the first time a window shows it. */
	private readonly texts = new WeakMap<object, number[]>();
	private readonly ordinals = new Map<number, number>();
	private request = 0;
	private readonly counts = { facts: 0, raw: 0, named: 0, missing: 0 };
	private readonly recalls: number[] = [];
	private readonly users = { requests: 0, lookups: 0, raw: 0, paraphrased: 0, gone: 0 };

	constructor(plan: WorkingSetPlan, messages: readonly { readonly message: TranscriptMessage }[]) {
		this.plan = plan;
		this.rawAt = new Int32Array(plan.messages);
		this.namedAt = new Int32Array(plan.holders.length);
		let n = 0;
		messages.forEach(({ message }, i) => {
			if (message.role === "assistant") this.ordinals.set(i, ++n);
		});
	}

	/** Where `needle` is in the window last observed. */
	private lookup(needle: number): "raw" | "named" | "missing" {
		for (const h of this.plan.holders[needle] as number[]) if (this.rawAt[h] === this.request) return "raw";
		return this.namedAt[needle] === this.request ? "named" : "missing";
	}

	/** The window of the request that produced the reply at `at` (its index among the replayed messages). */
	observe(at: number, view: WindowView): void {
		const request = ++this.request;
		for (const i of view.raw) this.rawAt[i] = request;
		for (const { key, text } of view.named) {
			const held = this.texts.get(key) ?? this.plan.index.find(text());
			this.texts.set(key, held);
			for (const id of held) this.namedAt[id] = request;
		}
		let missing = 0;
		for (const needle of this.plan.facts.get(at) ?? []) {
			const where = this.lookup(needle);
			this.counts.facts++;
			this.counts[where]++;
			if (where === "missing") missing++;
		}
		if (missing > 0) this.recalls.push(this.ordinals.get(at) ?? 0);
		const users = this.users;
		let earlier = 0;
		for (const u of this.plan.users) {
			if (u.at >= at) break;
			earlier++;
			const where = this.lookup(u.needle);
			if (where === "raw") users.raw++;
			else if (where === "named") users.paraphrased++;
			else users.gone++;
		}
		users.lookups += earlier;
		if (earlier > 0) users.requests++;
	}

	figures(): WorkingSetFigures {
		return {
			...this.counts,
			recalls: [...this.recalls],
			users: { messages: this.plan.users.length, ...this.users },
		};
	}
}
