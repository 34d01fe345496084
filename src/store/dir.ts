// Where a session's fold store lives (pure path arithmetic; no I/O; FoldStore creates it lazily).
//
//   persisted session:  <sessionDir>/<storeDirName>                      e.g. ~/.pi/.../pi-fold-store
//   in-memory session:  <fallbackRoot>/<storeDirName>/<session key>
//                       fallbackRoot defaults to <os.tmpdir()>/pi-fold-<uid> (per user, so another
//                       user cannot pre-create it; FoldStore refuses a root it does not own)
//
// The session key is the session id when it is a plain file name ([A-Za-z0-9][A-Za-z0-9._-]{0,127}),
// otherwise "h" + the first 32 hex of its SHA-256, so no id can escape the fallback folder.

import { tmpdir } from "node:os";
import { join } from "node:path";
import { sha256Hex } from "../verify/index.ts";

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** The per-user default root of fallback stores for sessions without a directory. */
export function defaultFallbackRoot(): string {
	const uid = process.getuid?.();
	return join(tmpdir(), uid === undefined ? "pi-fold" : `pi-fold-${uid}`);
}

/** A file-name-safe key for a session id (the id itself when already safe). */
export function sessionKey(sessionId: string): string {
	return SAFE_KEY.test(sessionId) ? sessionId : `h${sha256Hex(sessionId).slice(0, 32)}`;
}

/**
 * The directory of a session's store named `storeDirName` (e.g. derivedNames().storeDirName):
 * `<sessionDir>/<storeDirName>`, or for an in-memory session (no or empty
 * sessionDir) `<fallbackRoot ?? defaultFallbackRoot()>/<storeDirName>/<sessionKey(sessionId)>`.
 */
export function resolveStoreDir(input: {
	sessionDir: string | undefined;
	sessionId: string;
	storeDirName: string;
	fallbackRoot?: string;
}): string {
	if (!SAFE_KEY.test(input.storeDirName))
		throw new TypeError(`resolveStoreDir(): storeDirName must be a plain folder name, got ${input.storeDirName}`);
	if (input.sessionDir) return join(input.sessionDir, input.storeDirName);
	return join(input.fallbackRoot ?? defaultFallbackRoot(), input.storeDirName, sessionKey(input.sessionId));
}
