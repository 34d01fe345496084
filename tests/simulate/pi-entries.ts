// Test helper: simulator entries as Pi session entries (a parent chain, timestamps, and the usage a
// response carried), so Pi's own projection and compaction functions can be run on the same
// entries the simulator reads.

import type { SessionEntry } from "@earendil-works/pi-coding-agent";
import type { SimEntry } from "../../src/simulate/index.ts";

/** The same entries as Pi session entries; `usage` gives an assistant entry's usage total. */
export function asPi(entries: readonly SimEntry[], usage: ReadonlyMap<string, number> = new Map()): SessionEntry[] {
	return entries.map((e, i) => {
		const base = {
			id: e.id,
			parentId: i === 0 ? null : (entries[i - 1] as SimEntry).id,
			timestamp: new Date(1_000 + i).toISOString(),
		};
		if (e.type === "message") {
			const total = usage.get(e.id);
			const billed =
				total === undefined
					? {}
					: { usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: total, totalTokens: total } };
			return { ...base, type: "message", message: { ...e.message, ...billed, timestamp: 1_000 + i } } as SessionEntry;
		}
		if (e.type === "compaction")
			return {
				...base,
				type: "compaction",
				summary: e.summary,
				firstKeptEntryId: e.firstKeptEntryId,
				tokensBefore: e.tokensBefore,
			} as SessionEntry;
		return { ...base, ...e } as unknown as SessionEntry;
	});
}
