// pi-fold's Pi package entry: the default export registers pi-fold with its default options; hosts
// that want other options call the named `registerPiFold(pi, options)`. Registration lives in
// src/pi/register.ts.

import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { registerPiFold } from "./pi/index.ts";

export { OptionsError, type PiFoldOptions, type ResolvedOptions, resolveOptions } from "./options/index.ts";
export type { PiFold, RegisterExtras } from "./pi/index.ts";
export { registerPiFold };

export default function piFold(pi: ExtensionAPI): void {
	registerPiFold(pi);
}
