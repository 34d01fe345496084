// What a session file shows of the pi-fold it ran with, from pi-fold's own decision records: whether
// it ran pi-fold at all, and whether its folds got briefs a model wrote. A replay of such a session
// through pi-fold afresh runs with built-in briefs when none of its folds had a model-written one
// (its settings said so, or every model brief fell back): a model's briefs cost a request each, which
// makes pi-fold's cost scheduling commit later, so replayed with them the session would fold where it
// did not. Pure over the parsed file.

import type { PiFoldOptions } from "../options/index.ts";
import type { FileEntry } from "./session-file.ts";

/** What the records show: pi-fold ran; its folds' briefs were all built in (none a model's). */
export interface RanSettings {
	readonly ranPiFold: boolean;
	readonly builtInBriefs: boolean;
}

/** Reads `entries` (the whole file's) for pi-fold's decision records and their folds' brief sources. */
export function ranSettingsOf(entries: readonly FileEntry[]): RanSettings {
	let ranPiFold = false;
	let modelBriefs = 0;
	for (const e of entries) {
		if (e.type !== "custom" || !e.customType.endsWith(":decision")) continue;
		ranPiFold = true;
		const fold = (e.data as { fold?: { briefSource?: unknown } } | undefined)?.fold;
		if (fold?.briefSource === "model") modelBriefs++;
	}
	return { ranPiFold, builtInBriefs: ranPiFold && modelBriefs === 0 };
}

/** Whether a replay of `entries` with the caller's `options` writes built-in briefs because the session's folds had only those. */
export function replaysBuiltInBriefs(entries: readonly FileEntry[], options: PiFoldOptions | undefined): boolean {
	return (
		ranSettingsOf(entries).builtInBriefs &&
		options?.summarizer === undefined &&
		options?.summarizeContextSpan === undefined
	);
}
