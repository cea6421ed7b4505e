// Ink draws nothing until exit when CI is set; terminal tests need it gone before Ink loads.
delete process.env.CI;
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
// A test gives tickbook a home of its own; an XDG_CACHE_HOME from outside would send every test's
// dashboard code cache (and the completion cache) to the same place, the developer's own.
delete process.env.XDG_CACHE_HOME;
