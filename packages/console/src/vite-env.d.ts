// Vite bundles CSS imported from a module (main.tsx imports style.css).
declare module '*.css';
