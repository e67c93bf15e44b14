// The one set of time constants for tests, in milliseconds: rules stated in minutes, hours or days run on a
// VirtualClock, so tests write `3 * DAY`, never 259_200_000.
export const S = 1_000;
export const MIN = 60 * S;
export const H = 60 * MIN;
export const DAY = 24 * H;
