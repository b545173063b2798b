#!/usr/bin/env node
/**
 * Records an unpacked community package in n8n's database, as n8n's own community-package
 * install does after it has downloaded a package (rows in `installed_packages` and
 * `installed_nodes`, one per node the package loads). n8n then lists the package under
 * Settings > Community nodes and treats its nodes as community nodes.
 *
 * The package is read with n8n-core's PackageDirectoryLoader, the loader n8n uses for
 * such packages, so the recorded node names and versions are the ones n8n itself sees.
 *
 * The database is n8n's SQLite file, or PostgreSQL when DB_TYPE=postgresdb (n8n's own
 * DB_POSTGRESDB_* settings). Runs under the Node that runs n8n (sqlite3 is built for it):
 *   node register-community-package.js <n8n node_modules> <n8n user folder> <package name>
 * Prints one JSON line {packageName, installedVersion, nodes: [{name, type, latestVersion}]}.
 */
'use strict';

const path = require('node:path');

async function main() {
	const [n8nModules, userFolder, packageName] = process.argv.slice(2);
	if (!n8nModules || !userFolder || !packageName) {
		throw new Error(
			'usage: register-community-package.js <n8n node_modules> <user folder> <package name>',
		);
	}
	const n8nDir = path.join(userFolder, '.n8n');
	const packageDir = path.join(n8nDir, 'nodes', 'node_modules', packageName);
	const { PackageDirectoryLoader } = require(path.join(n8nModules, 'n8n-core'));

	const loader = new PackageDirectoryLoader(packageDir);
	await loader.loadAll();
	if (loader.loadedNodes.length === 0) {
		throw new Error(
			`package ${packageName} loads no nodes (check the "n8n.nodes" list of its package.json)`,
		);
	}
	const { name, version, author } = loader.packageJson;
	const nodes = loader.loadedNodes.map((node) => ({
		name: loader.nodeTypes[node.name].type.description.displayName,
		type: `${name}.${node.name}`,
		latestVersion: node.version,
	}));

	const prefix = process.env.DB_TABLE_PREFIX ?? '';
	const db =
		process.env.DB_TYPE === 'postgresdb'
			? await openPostgres(n8nModules)
			: openSqlite(n8nModules, n8nDir);
	const { run } = db;
	const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
	try {
		await run('BEGIN');
		// A package installed again replaces its earlier record (and, by cascade, its nodes).
		await run(`DELETE FROM "${prefix}installed_packages" WHERE "packageName" = ?`, [name]);
		await run(
			`INSERT INTO "${prefix}installed_packages" ("packageName", "installedVersion", "authorName", "authorEmail", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?)`,
			[name, version, author?.name ?? null, author?.email ?? null, now, now],
		);
		for (const node of nodes) {
			await run(
				`INSERT INTO "${prefix}installed_nodes" ("name", "type", "latestVersion", "package") VALUES (?, ?, ?, ?)`,
				[node.name, node.type, node.latestVersion, name],
			);
		}
		await run('COMMIT');
	} catch (error) {
		await run('ROLLBACK').catch(() => undefined);
		throw error;
	} finally {
		await db.close();
	}
	process.stdout.write(
		`${JSON.stringify({ packageName: name, installedVersion: version, nodes })}\n`,
	);
}

/** n8n's default database: the SQLite file in the user folder. */
function openSqlite(n8nModules, n8nDir) {
	const sqlite3 = require(path.join(n8nModules, 'sqlite3'));
	const db = new sqlite3.Database(path.join(n8nDir, 'database.sqlite'));
	const run = (sql, params = []) =>
		new Promise((resolve, reject) =>
			db.run(sql, params, (error) => (error ? reject(error) : resolve())),
		);
	return {
		run: async (sql, params) => {
			if (sql === 'BEGIN') await run('PRAGMA foreign_keys = ON');
			await run(sql, params);
		},
		close: () => new Promise((resolve) => db.close(resolve)),
	};
}

/** PostgreSQL, from n8n's own DB_POSTGRESDB_* settings (queue mode). */
async function openPostgres(n8nModules) {
	const { Client } = require(path.join(n8nModules, 'pg'));
	const env = process.env;
	const client = new Client({
		host: env.DB_POSTGRESDB_HOST,
		port: Number(env.DB_POSTGRESDB_PORT || 5432),
		database: env.DB_POSTGRESDB_DATABASE,
		user: env.DB_POSTGRESDB_USER,
		password: env.DB_POSTGRESDB_PASSWORD || undefined,
	});
	await client.connect();
	if (env.DB_POSTGRESDB_SCHEMA)
		await client.query(`SET search_path TO "${env.DB_POSTGRESDB_SCHEMA}"`);
	return {
		run: async (sql, params = []) => {
			let n = 0;
			await client.query(
				sql.replace(/\?/g, () => `$${++n}`),
				params,
			);
		},
		close: () => client.end(),
	};
}

main().catch((error) => {
	process.stderr.write(`register-community-package: ${error.message}\n`);
	process.exit(1);
});
