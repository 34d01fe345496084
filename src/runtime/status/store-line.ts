// The fold store's line of `/context details`: how much the project's store holds (each blob stored
// once, shared by every session, fork and subagent of the folder) and this session's share of it,
// in estimated tokens like every size a person reads (the stored bytes / 4). Pure over the status model.

import { plural } from "../../common/index.ts";
import type { StatusModel } from "./model.ts";

/** Bytes of stored originals per token: sizes a person reads are in estimated tokens, as every other. */
const BYTES_PER_TOKEN = 4;

/** Stored bytes as the estimated tokens of the originals they hold. */
const size = (bytes: number) => `~${Math.round(bytes / BYTES_PER_TOKEN).toLocaleString("en-US")} tokens`;

/** The line, or none when the store cannot tell its size. */
export function storeLines(m: Pick<StatusModel, "store">): string[] {
	const s = m.store();
	if (!s) return [];
	return [
		`Fold store: originals of ${size(s.bytes)} in ${plural(s.blobs, "blob")} (each once); this session's folds: ${size(s.sessionBytes)}`,
	];
}
