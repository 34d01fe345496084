// pi-ai's built-in model catalog as `pi-fold replay` reads it: a model's context window and the
// output tokens a reply reserves, by provider and model id, the figures Pi itself serves the model
// with. Bundled on its own (build/pi-models.js, pi-ai external) and loaded by path by the replay
// command (src/cli/commands/replay-model.ts), so the replay bundle carries no Pi and still runs
// where pi-ai is not installed. Pure over pi-ai's catalog.

import { getBuiltinModel } from "@earendil-works/pi-ai/providers/all";

/** What the replay reads of a catalog entry. */
export interface CatalogModel {
	readonly contextWindow: number;
	readonly maxTokens: number;
}

/** pi-ai's entry for `provider`/`id`, or undefined when the catalog has none. */
export function lookUpModel(provider: string, id: string): CatalogModel | undefined {
	const model = (getBuiltinModel as (p: string, m: string) => Partial<CatalogModel> | undefined)(provider, id);
	if (!model || !(Number(model.contextWindow) > 0)) return undefined;
	return { contextWindow: Number(model.contextWindow), maxTokens: Math.max(0, Number(model.maxTokens ?? 0)) };
}
