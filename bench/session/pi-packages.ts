// Loads the Pi host packages on first use. Everything in the benchmark that needs a Pi value gets it from here,
// so the bundled CLI keeps `@earendil-works/*` and `typebox` as dynamic imports and `pi-fold hash`/`verify`
// never load Pi (which is an optional peer).

export interface PiHost {
	ai: typeof import("@earendil-works/pi-ai");
	agent: typeof import("@earendil-works/pi-coding-agent");
	typebox: typeof import("typebox");
}

let loading: Promise<PiHost> | undefined;

export function loadPiHost(): Promise<PiHost> {
	loading ??= Promise.all([
		import("@earendil-works/pi-ai"),
		import("@earendil-works/pi-coding-agent"),
		import("typebox"),
	]).then(([ai, agent, typebox]) => ({ ai, agent, typebox }));
	return loading;
}
