/* eslint-disable @n8n/community-nodes/no-restricted-imports -- local tooling: drives the n8n editor in Chromium, not published (package.json "files" is dist/ only) */
/**
 * The n8n editor in headless Chromium (Debian's chromium driven by playwright-core): sign
 * in, open a node's panel, find its parameters and open its pickers and dropdowns. What
 * the page logs and every answer of n8n's loader routes are recorded, so a check can tell
 * an error of this package's code from the editor's own noise.
 */
import { existsSync } from 'fs';
import { chromium, selectors, type Browser, type Locator, type Page } from 'playwright-core';

import { OWNER } from '../../scripts/lib/stack';
import { log } from '../e2e/lib';

export const CHROMIUM = '/usr/bin/chromium';

/** Flags that work on a machine with no outside network (background lookups refused). */
const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/** An answer of n8n's loader routes (options, list search, resource mapper, credential test). */
export interface LoaderAnswer {
	route: string;
	method: string;
	status: number;
	body: unknown;
}

export class Editor {
	page!: Page;
	private browser!: Browser;
	/** Console errors and page errors since the last `takeErrors()`. */
	private errors: string[] = [];
	answers: LoaderAnswer[] = [];
	/** The node type of the open panel (another type opens with a fresh page load). */
	private openType: string | undefined;

	constructor(
		private readonly n8nUrl: string,
		private readonly packageWords: string[],
	) {}

	async launch(): Promise<void> {
		if (!existsSync(CHROMIUM))
			throw new Error(`${CHROMIUM} is missing (apt-get install -y chromium)`);
		selectors.setTestIdAttribute('data-test-id');
		this.browser = await chromium.launch({
			executablePath: CHROMIUM,
			headless: true,
			args: CHROMIUM_ARGS,
		});
		this.page = await this.browser.newPage({ viewport: { width: 1440, height: 1600 } });
		this.page.on('console', (message) => {
			if (message.type() === 'error')
				this.errors.push(`${message.text()} ${message.location().url ?? ''}`.trim());
		});
		this.page.on('pageerror', (error) => this.errors.push(`${error.message} ${error.stack ?? ''}`));
		this.page.on('response', (response) => {
			const url = new URL(response.url());
			if (!/\/rest\/(dynamic-node-parameters|credentials\/test)/.test(url.pathname)) return;
			void (async () => {
				let method = '';
				try {
					method = String(
						(JSON.parse(response.request().postData() ?? '{}') as { methodName?: string })
							.methodName ?? '',
					);
				} catch {
					// A request without a JSON body.
				}
				const body = await response.json().catch(() => undefined);
				this.answers.push({
					route: url.pathname.replace('/rest/', ''),
					method,
					status: response.status(),
					body,
				});
			})();
		});
	}

	async close(): Promise<void> {
		await this.browser?.close();
	}

	/** Signs in through n8n's sign-in form as the owner the stack set up. */
	async signIn(): Promise<void> {
		await this.page.goto(`${this.n8nUrl}/signin`);
		await this.page.getByTestId('emailOrLdapLoginId').locator('input').fill(OWNER.email);
		await this.page.getByTestId('password').locator('input').fill(OWNER.password);
		await this.page.getByTestId('form-submit-button').click();
		await this.page.waitForURL((url) => !url.pathname.includes('signin'), { timeout: 30_000 });
	}

	/**
	 * Errors that come from this package: a message, location or stack naming it, or a
	 * failed answer of a loader route (the console then says only "Failed to load resource").
	 * Other errors are returned apart, for the log.
	 */
	takeErrors(): { ours: string[]; others: string[] } {
		const errors = this.errors;
		this.errors = [];
		const failedLoaders = this.answers
			.filter((a) => a.status >= 400)
			.map(
				(a) =>
					`${a.route} ${a.method} answered ${a.status}: ${JSON.stringify(a.body).slice(0, 300)}`,
			);
		const ours = errors.filter(
			(e) =>
				this.packageWords.some((w) => e.includes(w)) ||
				/dynamic-node-parameters|credentials\/test/.test(e),
		);
		return { ours: [...ours, ...failedLoaders], others: errors.filter((e) => !ours.includes(e)) };
	}

	/**
	 * Opens the panel of a node of a saved workflow (n8n's `/workflow/<id>/<node id>` route).
	 * The first panel loads the editor; the next ones of the same workflow move within it
	 * through the editor's router (a full load takes 10 s or more), and show `nodeName` in
	 * the panel's header, else the page is loaded afresh.
	 */
	async openNode(
		workflowId: string,
		nodeId: string,
		node?: { name: string; type: string },
	): Promise<void> {
		this.answers = [];
		const route = `/workflow/${workflowId}/${nodeId}`;
		// Another node type loads afresh: the editor would otherwise ask the new type for the old panel's options.
		const sameType = node !== undefined && node.type === this.openType;
		this.openType = node?.type;
		if (sameType && new URL(this.page.url()).pathname.startsWith(`/workflow/${workflowId}`)) {
			const moved = await this.moveTo(route, node.name);
			if (moved === true) return;
			log(`        (loaded afresh: ${moved})`);
		}
		await this.page.goto(`${this.n8nUrl}${route}`);
		await this.page.getByTestId('ndv').waitFor({ timeout: 30_000 });
		await this.page.getByTestId('node-parameters').waitFor({ timeout: 30_000 });
		await this.page.waitForTimeout(800);
	}

	/** Closes the open panel and opens another node's through the editor's router; why not, when it does not show. */
	private async moveTo(route: string, nodeName: string): Promise<true | string> {
		// Escape closes an open dropdown first, then the panel; where a field keeps the key (seen
		// after the e-stamp panels), the panel's close button.
		for (let attempt = 0; attempt < 3 && (await this.ndv.isVisible()); attempt++) {
			const close = this.ndv.getByTestId('ndv-close-button');
			if (attempt === 2 && (await close.count()) > 0) await close.first().click();
			else await this.page.keyboard.press('Escape');
			await this.ndv.waitFor({ state: 'hidden', timeout: 2_000 }).catch(() => undefined);
		}
		if (await this.ndv.isVisible()) return 'the open panel did not close';
		// A string, so the browser's types stay out of this Node project.
		const pushed = (await this.page.evaluate(`(async () => {
			const router = document.querySelector('#app')?.__vue_app__?.config.globalProperties.$router;
			if (!router) return 'no router';
			await router.push(${JSON.stringify(route)});
			return true;
		})()`)) as true | string;
		if (pushed !== true) return `the router: ${pushed}`;
		try {
			await this.ndv
				.getByTestId('node-title-container')
				.filter({ hasText: nodeName })
				.first()
				.waitFor({ timeout: 10_000 });
			await this.page.getByTestId('node-parameters').waitFor({ timeout: 10_000 });
		} catch {
			const title = await this.ndv
				.getByTestId('node-title-container')
				.first()
				.innerText({ timeout: 1_000 })
				.catch(() => '(no panel)');
			return `the panel of "${nodeName}" did not show in 10 s (shown: ${title.replace(/\s+/g, ' ').slice(0, 120)})`;
		}
		await this.page.waitForTimeout(500);
		return true;
	}

	get ndv(): Locator {
		return this.page.getByTestId('ndv');
	}

	/** Whether a top-level parameter shows in the open panel (input, list, picker, label or notice). */
	async renders(name: string, displayName: string): Promise<boolean> {
		const ids = [
			`parameter-input-${name}`,
			`${name}-parameter-input-options-container`,
			`fixed-collection-${name}`,
			`resource-locator-${name}`,
		];
		for (const id of ids) if ((await this.ndv.getByTestId(id).count()) > 0) return true;
		// Collections, notices and the like: their name as the panel prints it.
		const text = displayName
			.replace(/<[^>]+>/g, '')
			.trim()
			.slice(0, 40);
		return text !== '' && (await this.ndv.getByText(text, { exact: false }).count()) > 0;
	}

	/** The visible entries of the open dropdown, after waiting for the first (up to `ms`). */
	private async visibleEntries(selector: string, ms: number): Promise<string[]> {
		const entries = this.page.locator(selector).filter({ visible: true });
		await entries
			.first()
			.waitFor({ state: 'visible', timeout: ms })
			.catch(() => undefined);
		return (await entries.allInnerTexts()).map((t) => t.trim()).filter(Boolean);
	}

	/** Opens a picker's list (From List mode) and returns its entries; picks the first. */
	async pickFromList(name: string): Promise<string[]> {
		const locator = this.ndv.getByTestId(`resource-locator-${name}`).first();
		await locator.getByTestId('rlc-input').click();
		const entries = await this.visibleEntries('[data-test-id="rlc-item"]', 15_000);
		if (entries.length > 0)
			await this.page
				.locator('[data-test-id="rlc-item"]')
				.filter({ visible: true })
				.first()
				.click();
		else await this.page.keyboard.press('Escape');
		await this.page.waitForTimeout(500);
		return entries;
	}

	/**
	 * Opens an options dropdown and returns its entries (closes it again). A second try
	 * after a pause: a dropdown that has just appeared (a new list entry) may not open yet.
	 */
	async dropdownEntries(input: Locator): Promise<string[]> {
		let entries: string[] = [];
		for (let attempt = 0; attempt < 2 && entries.length === 0; attempt++) {
			await input.scrollIntoViewIfNeeded();
			const box = input.locator('input, .el-select__wrapper').first();
			await ((await box.count()) > 0 ? box : input).click();
			entries = await this.visibleEntries(
				'.el-select-dropdown__item, [data-test-id="parameter-input-item"]',
				8_000,
			);
			await this.page.keyboard.press('Escape');
			await this.page.waitForTimeout(attempt === 0 && entries.length === 0 ? 1_000 : 200);
		}
		return entries;
	}

	/** Picks the entry of an options dropdown whose text starts with `label`. */
	async choose(name: string, label: string): Promise<void> {
		await this.ndv.getByTestId(`parameter-input-${name}`).first().click();
		await this.page
			.locator('.el-select-dropdown__item, [data-test-id="parameter-input-item"]')
			.filter({ visible: true })
			.filter({ hasText: label })
			.first()
			.click();
		await this.page.waitForTimeout(500);
	}

	/**
	 * Waits (up to `ms`) for an answer of a loader route for `method` that satisfies `wanted`;
	 * at the end, the latest answer for `method`, if any.
	 */
	async answer(
		method: string,
		ms: number,
		wanted: (answer: LoaderAnswer) => boolean = () => true,
	): Promise<LoaderAnswer | undefined> {
		const deadline = Date.now() + ms;
		for (;;) {
			const mine = this.answers.filter((a) => a.method === method);
			const found = [...mine].reverse().find(wanted);
			if (found) return found;
			if (Date.now() > deadline) return mine[mine.length - 1];
			await this.page.waitForTimeout(250);
		}
	}

	async screenshot(file: string): Promise<void> {
		await this.page.screenshot({ path: file });
	}
}
