/**
 * Time for the Status Trigger's poll budget in tests: a clock that moves only as the service
 * answers. Each API request the sandbox serves moves it by a set cost (a 700 ms round trip
 * by default), so a poll's duration is what its requests cost, the same on every machine,
 * and no wall-clock time passes. The test can also move it itself.
 *
 * A test file puts the clock in place of the node's (jest hoists the mock above the imports):
 *
 *   jest.mock('../../nodes/DocumentSigningStatusTrigger/pollClock', () =>
 *   	jest.requireActual<ServiceClockModule>('./service-clock').pollClockModule(),
 *   );
 *
 * then `const clock = useServiceClock(h.sandbox.state, 700)`.
 */
import type * as PollClock from '../../nodes/DocumentSigningStatusTrigger/pollClock';
import { ExecutionStopped, throwIfStopped } from '../../nodes/shared/run/cancel';
import { type Clock, realClock } from '../../nodes/shared/run/clock';

export type ServiceClockModule = typeof import('./service-clock');

interface Timer {
	at: number;
	fire: () => void;
}

export class ServiceClock implements Clock {
	private current = 1_000_000;
	private readonly timers: Timer[] = [];
	/** API requests the service has served since the clock was put in place. */
	served = 0;

	constructor(readonly costMs: number) {}

	now = (): number => this.current;

	sleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
		throwIfStopped(signal);
		await new Promise<void>((resolve, reject) => {
			const timer: Timer = {
				at: this.current + Math.max(0, ms),
				fire: () => {
					signal?.removeEventListener('abort', onAbort);
					resolve();
				},
			};
			const onAbort = () => {
				const index = this.timers.indexOf(timer);
				if (index >= 0) this.timers.splice(index, 1);
				reject(new ExecutionStopped());
			};
			signal?.addEventListener('abort', onAbort, { once: true });
			this.timers.push(timer);
		});
	};

	/** Told of every move (the service's own clock, so its stamps follow this one). */
	follower?: (ms: number) => void;

	/** Time passes: the timers due fire, in order (their waiters go on in the next microtasks). */
	pass(ms: number): void {
		this.current += ms;
		this.follower?.(ms);
		for (;;) {
			const due = this.timers.filter((t) => t.at <= this.current).sort((a, b) => a.at - b.at)[0];
			if (!due) return;
			this.timers.splice(this.timers.indexOf(due), 1);
			due.fire();
		}
	}

	/** Runs after each API request served (a change the service makes meanwhile). */
	onServed?: () => void;

	/** One API request served. */
	charge(): void {
		this.served++;
		this.pass(this.costMs);
		this.onServed?.();
	}
}

let current: Clock = realClock;

/** The clock the node reads from now on. */
export function usePollClock(clock: Clock): void {
	current = clock;
}

/** pollClock.ts with POLL_CLOCK reading the clock set here (the real one until set). */
export function pollClockModule(): typeof PollClock {
	return {
		POLL_CLOCK: {
			now: () => current.now(),
			sleep: async (ms, signal) => await current.sleep(ms, signal),
		},
	};
}

interface LoggedRequest {
	path: string;
}

/**
 * A service clock from now on, moved by every API request `state` (the sandbox's, in this
 * process) logs, also after a reset, which gives the sandbox a new log. The sandbox's clock
 * moves with it, so the service stamps its changes in the same time.
 */
export function useServiceClock(
	state: { requestLog: LoggedRequest[]; advanceClock(seconds: number): void },
	costMs = 700,
): ServiceClock {
	const clock = new ServiceClock(costMs);
	clock.follower = (ms) => state.advanceClock(ms / 1000);
	const watch = (log: LoggedRequest[]) => {
		const push = log.push.bind(log);
		log.push = (...entries: LoggedRequest[]) => {
			const length = push(...entries);
			for (const entry of entries) if (entry.path.startsWith('/api/v1/')) clock.charge();
			return length;
		};
		return log;
	};
	let log = watch(state.requestLog);
	Object.defineProperty(state, 'requestLog', {
		configurable: true,
		enumerable: true,
		get: () => log,
		set: (next: LoggedRequest[]) => (log = watch(next)),
	});
	current = clock;
	return clock;
}
