/**
 * The key React Router gives the first location of a page load (BrowserRouter and StaticRouter alike);
 * every in-app navigation gets a fresh random key. Screens use it to tell a page load, which the
 * browser handles (scroll position, focus), from a navigation inside the app.
 */
export const FIRST_LOCATION_KEY = 'default';
