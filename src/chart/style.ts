// How a chart tells its series and guides apart: arms take the Okabe–Ito colour-blind-safe palette,
// each with its own line style too (so the chart reads in grey, and for every kind of colour
// blindness), and guides take neutral greys with their own dash patterns. Pure constants.

/** One series' look: a colour and a dash pattern ("" is a solid line). */
export interface LineStyle {
	readonly color: string;
	readonly dash: string;
	readonly width: number;
}

/**
 * Series styles in order: Okabe & Ito's palette (blue, vermillion, bluish green, reddish purple,
 * orange, sky blue, black), yellow left out for its contrast on white; no two share a dash.
 */
export const SERIES_STYLES: readonly LineStyle[] = [
	{ color: "#0072B2", dash: "", width: 2.6 },
	{ color: "#D55E00", dash: "9 4", width: 2.2 },
	{ color: "#009E73", dash: "2 3", width: 2.4 },
	{ color: "#CC79A7", dash: "12 4 3 4", width: 2.2 },
	{ color: "#E69F00", dash: "6 3 2 3 2 3", width: 2.2 },
	{ color: "#56B4E9", dash: "4 4", width: 2.2 },
	{ color: "#000000", dash: "1 4", width: 2 },
];

/** Guide styles in order: neutral greys, each with a dash no series uses. */
export const GUIDE_STYLES: readonly LineStyle[] = [
	{ color: "#525252", dash: "7 5", width: 1.2 },
	{ color: "#737373", dash: "3 5", width: 1.2 },
	{ color: "#8c8c8c", dash: "14 4", width: 1.2 },
	{ color: "#262626", dash: "1 6", width: 1.2 },
	{ color: "#404040", dash: "10 3 2 3", width: 1.2 },
	{ color: "#a3a3a3", dash: "5 2", width: 1.4 },
];

/** The style of series `i` (styles repeat, with a heavier line, past the palette's end). */
export function seriesStyle(i: number): LineStyle {
	const base = SERIES_STYLES[i % SERIES_STYLES.length] as LineStyle;
	return i < SERIES_STYLES.length ? base : { ...base, width: base.width + 1.2 };
}

export function guideStyle(i: number): LineStyle {
	return GUIDE_STYLES[i % GUIDE_STYLES.length] as LineStyle;
}
