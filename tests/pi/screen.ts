// A notice as Pi's TUI draws it at 80 columns (a pi-tui Text with one column of padding), each line
// trimmed, with the parts that differ between runs masked: what the human-facing tests compare.

import { Text } from "@earendil-works/pi-tui";

/** A pattern and what it is drawn as. */
export type Mask = readonly [RegExp, string];

export const FOLD_IDS: Mask = [/\bf[0-9a-f]{16}\b/g, "fXXXXXXXXXXXXXXXX"];
export const ENTRY_IDS: Mask = [/\b[0-9a-f]{8}\b/g, "eeeeeeee"];
export const TMP_DIRS: Mask = [/\/tmp\/[\w.-]+\//g, "<tmp>/"];
export const SHA_PREFIXES: Mask = [/\b[0-9a-f]{16}…/, "<sha256>…"];
export const CLOCK_TIMES: Mask = [/\d\d:\d\d:\d\d UTC/, "hh:mm:ss UTC"];

/** `text` drawn at 80 columns, masks applied in order. */
export function drawn(text: string, masks: readonly Mask[] = []): string[] {
	return new Text(text, 1, 0)
		.render(80)
		.map((line) => masks.reduce((l, [pattern, as]) => l.replace(pattern, as), line.trimEnd()));
}
