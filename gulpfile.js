const { src, dest, parallel } = require('gulp');

// tsc compiles the TypeScript; these assets travel beside it into dist/.
function copyIcons() {
	return src('icons/**/*.svg').pipe(dest('dist/icons'));
}

function copyNodeAssets() {
	return src(['nodes/**/*.json', 'nodes/**/*.svg'], { base: '.' }).pipe(dest('dist'));
}

exports.build = parallel(copyIcons, copyNodeAssets);
exports.default = exports.build;
