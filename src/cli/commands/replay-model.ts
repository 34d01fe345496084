// The model catalog `pi-fold replay` defaults its window and output reserve from: pi-ai's, through
// the Pi adapter's own bundle (build/pi-models.js from src/pi/model-catalog.ts), found beside this
// bundle by path at run time, as the bin finds its commands, so no Pi code is bundled here and a
// machine without pi-ai still replays (with --window). Run from sources (no bundle beside), or
// without pi-ai, there is no catalog, and the reason says so.

import type { ModelLookup } from "../../replay/index.ts";

/** The catalog's lookup, or why there is none (words for "pi-fold's default, since ..."). */
export async function loadModelCatalog(): Promise<{ lookup: ModelLookup } | { missing: string }> {
	try {
		const url = new URL("./pi-models.js", import.meta.url).href;
		const mod = (await import(url)) as { lookUpModel: ModelLookup };
		return { lookup: mod.lookUpModel };
	} catch {
		return { missing: "pi-ai's model list is not installed next to pi-fold" };
	}
}
