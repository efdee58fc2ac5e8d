// Vite's client types: imports of CSS and assets, import.meta.env.
/// <reference types="vite/client" />
