// Stylesheets are imported for their side effect only: esbuild bundles them into the explorer's CSS file.
declare module '*.css';
