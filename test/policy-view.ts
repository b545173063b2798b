/**
 * A frozen policy object whose fields read the policy a test set last (the product's defaults
 * until then). The product's policies are frozen; a test file that needs others replaces the
 * policy's module with one exporting this view (jest.mock, hoisted above the imports), so the
 * nodes read the test's values without a mutable object in the product. jest gives each test
 * file its own modules: nothing set here reaches another file.
 */
export class PolicyView<P extends object> {
	readonly view: P;
	private current: P;

	constructor(readonly defaults: P) {
		this.current = defaults;
		const view = {} as P;
		for (const key of Object.keys(defaults) as Array<keyof P>)
			Object.defineProperty(view, key, { enumerable: true, get: () => this.current[key] });
		this.view = Object.freeze(view);
	}

	/** The defaults with `overrides` from now on; returns the policy. */
	set(overrides: Partial<P> = {}): P {
		this.current = Object.freeze({ ...this.defaults, ...overrides });
		return this.current;
	}
}
