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

	/**
	 * The defaults with `overrides` from now on on `view` (undefined: the test file has not put
	 * the view in place of `what`, so setting would change nothing); returns the policy.
	 */
	static set<P extends object>(
		view: PolicyView<P> | undefined,
		what: string,
		overrides: Partial<P> = {},
	): P {
		if (!view)
			throw new Error(
				`the test file must put the view in place of ${what} (jest.mock) and load the nodes first; setting it would change nothing otherwise`,
			);
		return view.set(overrides);
	}

	/** The defaults with `overrides` from now on; returns the policy. */
	set(overrides: Partial<P> = {}): P {
		this.current = Object.freeze({ ...this.defaults, ...overrides });
		return this.current;
	}
}
