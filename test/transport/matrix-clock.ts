import { BatchClock } from './fake-clock';

/**
 * The one clock of the rate matrix's file: jest.mock puts it in place of nodes/shared/run/clock's
 * realClock. It starts in 2026, so that an epoch reset reads as one (signals.ts).
 */
export const matrixClock = new BatchClock(Date.UTC(2026, 0, 1));
