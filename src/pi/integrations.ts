// The optional host integrations, wired around the runtime: the projection-candidate provider handed
// to `setProjectionProvider`, and the suggestion-source registrar handed to
// `setSuggestionSourceRegistrar` (sources register; nothing renders). Both read the runtime's
// snapshot of the latest context this module saw.

import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { candidatesFor, SuggestionRegistry, suggestionAcceptEntryType } from "../runtime/index.ts";
import type { BoundaryFollower } from "./boundary-hooks.ts";
import type { PiFold } from "./host.ts";

/** Registers the integrations; returns the boundary follower that remembers the latest context. */
export function registerIntegrations(pi: ExtensionAPI, fold: PiFold): BoundaryFollower {
	const { runtime } = fold;
	const options = runtime.options;
	let latest: ExtensionContext | undefined;
	const remember = (ctx: ExtensionContext) => {
		latest = ctx;
	};
	pi.on("session_start", (_event, ctx) => {
		remember(ctx);
	});
	options.setProjectionProvider?.(() => {
		try {
			return latest ? candidatesFor(runtime, fold.host(latest)) : [];
		} catch {
			return [];
		}
	});
	if (options.setSuggestionSourceRegistrar) {
		const registry = new SuggestionRegistry({
			write: (record) => pi.appendEntry(suggestionAcceptEntryType(options.entryTypePrefix), record),
		});
		options.setSuggestionSourceRegistrar(registry.registrar);
	}
	return (_entries, ctx) => remember(ctx);
}
