// navigate(url): move to another page of the app without reloading it.
let handler = (url) => { location.href = url; };
export const setNavigator = (fn) => { handler = fn; };
export const navigate = (url, opts = {}) => handler(url, opts);
