// Plain-data shapes of the fold lattice: fold records whose ordered children reach down to exact
// session entries. Pure types; no Pi imports.

import type { FileRead } from "./reads.ts";

/**
 * How a fold came to be: a tool batch, a closed chapter, an agent-chosen span, folds of folds, or one
 * tool result too large for the window (its call stays; the result shows as an excerpt).
 */
export type FoldKind = "tools" | "chapter" | "span" | "consolidation" | "result";

/** The kinds of fold a summarizer may be asked to brief (an oversized result's brief is its excerpt). */
export type BriefedKind = Exclude<FoldKind, "result">;

/** Who decided the fold: the session's agent or the automatic ladder. */
type FoldOrigin = "agent" | "ladder";

/** Where a brief's text came from. */
export type BriefSource = "agent" | "deterministic" | "model" | "supplied";

/** An ordered reference from a fold to a child: an exact session entry or a nested fold. */
export type FoldChild =
	| { readonly type: "entry"; readonly id: string }
	| { readonly type: "fold"; readonly id: string };

/**
 * A fold decision. Records are immutable; the nesting (parent, children, depth) is derived from
 * the leaf ranges, because folds nest or are disjoint (never partially overlap), so a fold made
 * later inside an expanded one becomes its child without rewriting the older record.
 */
export interface FoldRecord {
	/** Content-derived id ("f" + 16 hex of the SHA-256 of the canonical leaves). */
	readonly id: string;
	readonly kind: FoldKind;
	readonly origin: FoldOrigin;
	/** Ordered exact session entry ids the fold covers. */
	readonly leafIds: readonly string[];
	/** SHA-256 (hex) of the fold's exact source bytes: its address in the fold store. */
	readonly sourceSha256: string;
	readonly sourceBytes: number;
	readonly brief: string;
	readonly briefSource: BriefSource;
	/**
	 * The index of the names the fold holds ("Names: a, b, c (+N more)."), shown in its placeholder
	 * after the brief; absent on folds made before pi-fold kept one, and on excerpts.
	 */
	readonly names?: string;
	/**
	 * The lines of its results the agent went on to use, verbatim, shown in its placeholder after the
	 * names (src/briefs lines-in-use.ts); absent when none was used after the span.
	 */
	readonly inUse?: string;
	/** Files read inside the span (path and digest of the text returned), when the fold recorded them. */
	readonly reads?: readonly FileRead[];
}
