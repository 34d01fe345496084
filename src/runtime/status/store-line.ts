// The fold store's line of `/context details`: how much the project's store holds (each blob stored
// once, shared by every session, fork and subagent of the folder) and this session's share of it.
// Pure over the status model.

import { plural } from "../../common/index.ts";
import type { StatusModel } from "./model.ts";

/** Bytes in KiB below 1 MiB, else in MiB, one decimal. */
const size = (bytes: number) =>
	bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** The line, or none when the store cannot tell its size. */
export function storeLines(m: Pick<StatusModel, "store">): string[] {
	const s = m.store();
	if (!s) return [];
	return [
		`Fold store: ${size(s.bytes)} in ${plural(s.blobs, "blob")} (each once); this session's folds: ${size(s.sessionBytes)}`,
	];
}
