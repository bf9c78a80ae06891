/**
 * What islands import as "react" in the browser (islands-bundle.ts aliases it here). Islands use hooks and
 * JSX only, so they get Preact's hooks directly instead of preact/compat, which would add its React emulation to
 * every page.
 * On the server the same island files import the real React and render with the page.
 */
export { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
export { createElement, Fragment } from "preact";
