// Chart layer: line charts as self-contained SVG (the session benchmark's context.svg and
// `pi-fold replay`'s chart), with a colour-blind-safe palette and a line style per series, neutral
// guides whose labels never overlap, a title and a legend. Pure; no dependencies.

export { GUIDE_STYLES, SERIES_STYLES } from "./style.ts";
export { type ChartInput, type ChartSeries, niceStep, renderLineChart } from "./svg.ts";
