// pi-fold's Pi package entry. The folding runtime (tool, hooks, commands) registers here; until it
// lands this entry loads, proves the embedded Wasm core instantiates inside Pi, and registers nothing.

import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { core } from "./wasm/index.ts";

/** Registers pi-fold on a Pi extension API. */
export function registerPiFold(_pi: ExtensionAPI): void {
	core();
}

export default function piFold(pi: ExtensionAPI): void {
	registerPiFold(pi);
}
