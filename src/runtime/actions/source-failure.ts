// What a person (or the agent) reads when a fold's stored original fails verification: the
// store's refusal (which names the fold and both SHA-256 digests) and then what to do next. The
// file that failed can be moved out of the store: pi-fold then rebuilds the original from the
// session's own entries and checks it against the same digest (session-source.ts), and the next
// commit that stores it writes a correct copy; `pi-fold verify` names every other damaged file.
// Used by peek and expand, and by expand-all for each fold it leaves folded. Pure: the paths are
// computed, not read.

import { join } from "node:path";
import { errorMessage } from "../../common/index.ts";
import { resolveStoreDir, SourceVerificationError } from "../../store/index.ts";
import { blobRelPath } from "../../verify/index.ts";
import { type ActionInput, askFor } from "./shared.ts";

type Asker = Pick<ActionInput, "runtime" | "host" | "actor">;

/** What to do about a damaged original of fold `id`, or undefined when `error` is no damaged blob. */
export function sourceNextStep(
	input: Asker,
	error: unknown,
	action: "expand" | "peek",
	id: string,
): string | undefined {
	if (!(error instanceof SourceVerificationError) || error.reason === "missing") return undefined;
	const session = input.host.session();
	const dir = resolveStoreDir({
		sessionDir: session.dir,
		sessionId: session.id,
		storeDirName: input.runtime.names.storeDirName,
	});
	const blob = join(dir, blobRelPath(error.expected));
	return (
		`What to do: move ${blob} out of the fold store; pi-fold then rebuilds the original ` +
		`from this session's own entries, checked against the same SHA-256, and ${askFor(input, action, id)} ` +
		`works again (if Pi's compaction summarized those entries, the original is lost and the brief stays). ` +
		`\`npx pi-fold verify ${dir}\` names every other damaged file in the store.`
	);
}

/** The refusal text for a failed read of fold `id`'s original, with the next steps when it was damaged. */
export function sourceRefusal(input: Asker, error: unknown, action: "expand" | "peek", id: string): string {
	const next = sourceNextStep(input, error, action, id);
	return next ? `${errorMessage(error)}.\n${next}` : errorMessage(error);
}
