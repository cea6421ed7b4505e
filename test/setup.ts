// Ink draws nothing until exit when CI is set; terminal tests need it gone before Ink loads.
delete process.env.CI;
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
