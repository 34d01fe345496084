// What a person (or the agent) reads when a fold's stored original fails verification: the
// store's refusal (which names the fold and both SHA-256 digests) and then what to do next. The
// file that failed can be moved out of the store: pi-fold then rebuilds the original from the
// session's own entries and checks it against the same digest (session-source.ts), and the next
// commit that stores it writes a correct copy; `pi-fold verify` names every other damaged file.
// Pure apart from nothing: the paths are computed, not read.

import { join } from "node:path";
import { errorMessage } from "../../common/index.ts";
import { resolveStoreDir, SourceVerificationError } from "../../store/index.ts";
import { blobRelPath } from "../../verify/index.ts";
import { type ActionInput, askFor } from "./shared.ts";

/** The refusal text for a failed read of fold `id`'s original, with the next steps when it was damaged. */
export function sourceRefusal(input: ActionInput, error: unknown, action: "expand" | "peek", id: string): string {
	const message = errorMessage(error);
	if (!(error instanceof SourceVerificationError) || error.reason === "missing") return message;
	const session = input.host.session();
	const dir = resolveStoreDir({
		sessionDir: session.dir,
		sessionId: session.id,
		storeDirName: input.runtime.names.storeDirName,
	});
	const blob = join(dir, blobRelPath(error.expected));
	return (
		`${message}.\nWhat to do: move ${blob} out of the fold store; pi-fold then rebuilds the original ` +
		`from this session's own entries, checked against the same SHA-256, and ${askFor(input, action, id)} ` +
		`works again (if Pi's compaction summarized those entries, the original is lost and the brief stays). ` +
		`\`npx pi-fold verify ${dir}\` names every other damaged file in the store.`
	);
}
