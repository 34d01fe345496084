// Suggestion sources, registered and gated off. The spec ("What the invariant cost"): a slate shown
// on one request and withdrawn on the next is a show-then-retract that rewrites prefix bytes and
// kills the provider cache, so in this build NOTHING renders a suggestion. Sources may register
// (through the function the host receives from `setSuggestionSourceRegistrar`) and their accept
// reports persist, but this module never calls a source's `suggest` and has no way to produce
// window text: it holds sources and appends accept records through the writer the runtime gives
// (e.g. `(r) => pi.appendEntry(suggestionAcceptEntryType(prefix), r)`, a custom entry that never
// reaches the model). Pure apart from that injected writer.

import { z } from "zod";
import type { SuggestionSource } from "../options/index.ts";

/** The custom entry type of accept reports, derived from entryTypePrefix. */
export function suggestionAcceptEntryType(entryTypePrefix: string): string {
	return `${entryTypePrefix}:suggestion-accept`;
}

const idSchema = z.string().min(1).max(128);

/** What a host reports when the agent acted on a source's suggestion. */
const suggestionAcceptSchema = z.strictObject({
	sourceId: idSchema,
	foldId: idSchema,
	action: z.enum(["peek", "expand"]),
	score: z.number().finite().optional(),
});
type SuggestionAcceptReport = z.input<typeof suggestionAcceptSchema>;

/** The persisted form of an accept report (validated again on replay by parseSuggestionAccept). */
const suggestionAcceptRecordSchema = z.strictObject({
	v: z.literal(1),
	kind: z.literal("suggestion-accept"),
	sourceId: idSchema,
	foldId: idSchema,
	action: z.enum(["peek", "expand"]),
	score: z.number().finite().nullable(),
});
export type SuggestionAcceptRecord = z.output<typeof suggestionAcceptRecordSchema>;

/** Parses a persisted accept record; throws naming the first bad field. */
export function parseSuggestionAccept(data: unknown): SuggestionAcceptRecord {
	const parsed = suggestionAcceptRecordSchema.safeParse(data);
	if (parsed.success) return parsed.data;
	const issue = parsed.error.issues[0];
	throw new TypeError(`suggestion accept record: ${issue?.path.join(".") || "record"}: ${issue?.message ?? "invalid"}`);
}

/** Holds registered suggestion sources and persists their accept reports; renders nothing. */
export class SuggestionRegistry {
	private readonly registered = new Map<string, SuggestionSource>();
	private readonly log: SuggestionAcceptRecord[] = [];
	private readonly write: (record: SuggestionAcceptRecord) => void;
	/** `register` bound to this registry: what the runtime hands to setSuggestionSourceRegistrar. */
	readonly registrar: (source: SuggestionSource) => () => void;

	/** `write` persists one accept record (the runtime passes a pi.appendEntry wrapper). */
	constructor(options: { write(record: SuggestionAcceptRecord): void; replayed?: readonly unknown[] }) {
		this.write = options.write;
		for (const data of options.replayed ?? []) this.log.push(parseSuggestionAccept(data));
		this.registrar = (source) => this.register(source);
	}

	/** Registers a source; returns its unregister function (idempotent). Ids must be unique. */
	register(source: SuggestionSource): () => void {
		if (source === null || typeof source !== "object" || typeof source.suggest !== "function")
			throw new TypeError("suggestion source must be an object { id, suggest(input) }");
		const id = idSchema.safeParse(source.id);
		if (!id.success) throw new TypeError("suggestion source id must be a non-empty string of at most 128 characters");
		if (this.registered.has(source.id)) throw new Error(`suggestion source ${source.id} is already registered`);
		this.registered.set(source.id, source);
		return () => {
			if (this.registered.get(source.id) === source) this.registered.delete(source.id);
		};
	}

	/** The registered sources, in registration order. */
	sources(): readonly SuggestionSource[] {
		return [...this.registered.values()];
	}

	/** Validates and persists an accept report of a registered source; returns the persisted record. */
	recordAccept(report: SuggestionAcceptReport): SuggestionAcceptRecord {
		const parsed = suggestionAcceptSchema.safeParse(report);
		if (!parsed.success) {
			const issue = parsed.error.issues[0];
			throw new TypeError(`suggestion accept report: ${issue?.path.join(".") || "report"}: ${issue?.message}`);
		}
		if (!this.registered.has(parsed.data.sourceId))
			throw new Error(`suggestion source ${parsed.data.sourceId} is not registered`);
		const record: SuggestionAcceptRecord = {
			v: 1,
			kind: "suggestion-accept",
			sourceId: parsed.data.sourceId,
			foldId: parsed.data.foldId,
			action: parsed.data.action,
			score: parsed.data.score ?? null,
		};
		this.write(record);
		this.log.push(record);
		return record;
	}

	/** Every accept record of this session (replayed ones first). */
	accepts(): readonly SuggestionAcceptRecord[] {
		return [...this.log];
	}
}
