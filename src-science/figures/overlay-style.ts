// How the lines over a solar image look, on a figure and on screen: each colour drawn over a black outline, so
// every line and label keeps a 3:1 contrast (WCAG's for graphics) against every colour of every colour map: where
// the colour itself fades into the map (the salmon north on LASCO C2's oranges), the outline shows, and the other
// way round on the dark end of a map. test/science/figures/figure-drawing.test.ts checks it on each map's colours.
export const OVERLAY_COLOURS = {
  limb: '#ffd23f',
  circle: '#7fd4ff',
  north: '#ff9473',
  outline: '#000',
} as const;

/** The text on a solar-radius circle ("2 R☉"): the distance from Sun centre it is drawn at. */
export function circleLabel(solarRadii: number): string {
  return `${solarRadii} R☉`;
}
