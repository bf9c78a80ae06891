/**
 * The placeholder a part of the markup shared by every page of a language leaves in each page
 * (src/components/SharedMarkup.tsx). A part is rendered once per language and build; pages keep only its
 * placeholder until the output minifies them, which puts the part in place, itself minified once per
 * build (minify-html.ts), instead of minifying the same 9 KB again in every page.
 *
 * React writes `<template data-shared-markup={key} />` as this, then the key, then `"></template>`; page
 * text cannot contain it (React escapes its `<`).
 */
export const PLACEHOLDER_START = '<template data-shared-markup="';
