// The Node version gate of the `pi-fold` bin: compares the running Node with the package's
// `engines.node` floor and words the one line printed when it is too old. Part of build/cli.js, which
// is compiled for Node 14 syntax (scripts/bundle.mjs), so keep it to plain ES2019 and no imports. Pure.

/** The numeric [major, minor, patch] of "v22.19.0", "22.19.0" or ">=22.19.0". */
export function versionParts(version: string): [number, number, number] {
	const m = /(\d+)\.(\d+)\.(\d+)/.exec(version);
	return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
}

/** True when `running` is at least `minimum` (both like "22.19.0", a leading "v" or ">=" allowed). */
export function nodeSatisfies(running: string, minimum: string): boolean {
	const a = versionParts(running);
	const b = versionParts(minimum);
	for (let i = 0; i < 3; i++) {
		if ((a[i] as number) !== (b[i] as number)) return (a[i] as number) > (b[i] as number);
	}
	return true;
}

/** The one line the bin prints under a Node older than `minimum`. */
export function nodeTooOldMessage(running: string, minimum: string): string {
	const floor = versionParts(minimum);
	const major = floor[0];
	return (
		`pi-fold: needs Node.js ${floor.join(".")} or later, this is Node.js ${running}; ` +
		`install Node.js ${major}.${floor[1]}+ (https://nodejs.org), or, in a pi-fold checkout after npm ci, ` +
		`run npx pi-fold ... (the checkout brings its own Node ${major})\n`
	);
}
