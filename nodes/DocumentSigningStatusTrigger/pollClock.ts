import { type Clock, realClock } from '../shared/run/clock';

/** Time as the poll budget sees it (budget.ts); a test puts its own clock in place of this module. */
export const POLL_CLOCK: Clock = realClock;
