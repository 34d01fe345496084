// The text a collapsed fold shows in the window: its own id, brief, size, source digest and how to
// peek or expand it (an oversized result's excerpt also how to search inside it). It names nothing
// about neighbouring folds, so adding a fold never changes another fold's placeholder. Pure.

import { nounFor } from "../common/index.ts";
import type { FoldRecord } from "../lattice/index.ts";

/** Names the placeholder uses; they derive from the branding options. */
export interface PlaceholderNames {
	/** Short noun for pi-fold in the window (option `brandNoun`, default "active-context"). */
	readonly brandNoun: string;
	/** The context tool's name (option `toolName`, default "active_context"). */
	readonly toolName: string;
}

/** The placeholder text of `fold`. Deterministic: same fold and names, same bytes. */
export function renderPlaceholder(fold: FoldRecord, names: PlaceholderNames): string {
	if (fold.kind === "result") return renderExcerpt(fold, names);
	const entries = `${fold.leafIds.length} ${nounFor(fold.leafIds.length, "entry", "entries")}`;
	const head = `[${names.brandNoun} fold ${fold.id} · ${entries} · ${fold.sourceBytes.toLocaleString("en-US")} bytes · sha256 ${fold.sourceSha256.slice(0, 16)}]`;
	const how = `peek: ${names.toolName} {"action":"peek","id":"${fold.id}"} · expand: ${names.toolName} {"action":"expand","id":"${fold.id}"}`;
	const extra = [fold.names, fold.inUse].filter((part) => part !== undefined).map((part) => `${part}\n`);
	return `${head}\n${fold.brief}\n${extra.join("")}${how}`;
}

/**
 * An oversized result's placeholder (it stands in the tool result's own place, answering its call):
 * the excerpt (its brief) and how to read the rest: search inside it, peek at any offset, expand it
 * when the window has room.
 */
function renderExcerpt(fold: FoldRecord, names: PlaceholderNames): string {
	const head = `[${names.brandNoun} excerpt · fold ${fold.id} · ${fold.sourceBytes.toLocaleString("en-US")} bytes · sha256 ${fold.sourceSha256.slice(0, 16)}]`;
	const how = `search it: ${names.toolName} {"action":"search","fold":"${fold.id}","pattern":"…"} · peek: ${names.toolName} {"action":"peek","id":"${fold.id}","offset":0} · expand: ${names.toolName} {"action":"expand","id":"${fold.id}"}`;
	return `${head}\n${fold.brief}\n${how}`;
}
