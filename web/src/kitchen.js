// The kitchen pack as the package ships it: its domain (generated from
// domains/kitchen/ into web/dist/kitchen.mjs) and the kitchen names that are
// part of the public API. Nothing else in web/src names a kitchen table.
import { kitchen } from '../dist/kitchen.mjs';
import { embeddingText } from './embedder.js';

export { kitchen };

/**
 * The text a kitchen recipe is embedded from (`embeddingText` with the
 * kitchen's recipes): name, description, cuisine and the tag columns.
 *
 * @example
 * recipeEmbeddingText({ name: 'Chicken Curry', cuisine: 'indian', tags: ['spicy'] })  // 'Chicken Curry. indian. spicy'
 */
export const recipeEmbeddingText = (recipe) => embeddingText(kitchen, 'recipes', recipe);
