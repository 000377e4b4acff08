// Types of the kitchen domain for alfred-act, written by `alfred-act domain pull --types`.
// Write them again when the domain changes; edits here are lost.
//
//   import type { Domain } from './domain.js'
//   const act = createAct<Domain>({ supabase, domain })
//
// Keys and references hold refs (`recipe_3`), never UUIDs; a create sets a key only
// to save a generated row (`gen_recipe_1`). A column left out of Insert is the database's
// or the owner, which the act sets.

/** Any JSON value (a jsonb column). */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** The tables and functions of the kitchen domain. */
export interface Domain {
  tables: {
    cooking_log: {
      Row: {
        cooked_at: string;
        created_at: string;
        from_meal_plan_id: `meal_${number}` | `gen_meal_${number}` | null;
        id: `log_${number}` | `gen_log_${number}`;
        notes: string | null;
        rating: number | null;
        recipe_id: `recipe_${number}` | `gen_recipe_${number}` | null;
        servings: number | null;
      };
      Filters: {
        cooked_at: string;
        created_at: string;
        from_meal_plan_id: `meal_${number}` | `gen_meal_${number}`;
        id: `log_${number}` | `gen_log_${number}`;
        notes: string;
        rating: number;
        recipe_id: `recipe_${number}` | `gen_recipe_${number}`;
        servings: number;
      };
      Insert: {
        cooked_at?: string;
        from_meal_plan_id?: `meal_${number}` | `gen_meal_${number}` | null;
        id?: `gen_log_${number}`;
        notes?: string | null;
        rating?: number | null;
        recipe_id?: `recipe_${number}` | `gen_recipe_${number}` | null;
        servings?: number | null;
      };
      Update: {
        cooked_at?: string;
        from_meal_plan_id?: `meal_${number}` | `gen_meal_${number}` | null;
        notes?: string | null;
        rating?: number | null;
        recipe_id?: `recipe_${number}` | `gen_recipe_${number}` | null;
        servings?: number | null;
      };
      Delete: true;
      Relations: never;
    };
    ingredients: {
      Row: {
        aliases: string[];
        category: string | null;
        created_at: string;
        cuisines: string[];
        default_unit: string | null;
        family: string;
        flavor_compounds: string[] | null;
        id: `ing_${number}` | `gen_ing_${number}`;
        is_system: boolean;
        name: string;
        nutrition_per_100g: Json | null;
        parent_category: 'produce' | 'protein' | 'dairy' | 'grains' | 'pantry' | 'spices' | 'baking' | 'specialty';
        tier: number;
      };
      Filters: {
        aliases: string[];
        category: string;
        created_at: string;
        cuisines: string[];
        default_unit: string;
        family: string;
        flavor_compounds: string[];
        id: `ing_${number}` | `gen_ing_${number}`;
        is_system: boolean;
        name: string;
        nutrition_per_100g: Json;
        parent_category: 'produce' | 'protein' | 'dairy' | 'grains' | 'pantry' | 'spices' | 'baking' | 'specialty';
        tier: number;
      };
      Insert: never;
      Update: never;
      Delete: never;
      Relations: never;
    };
    inventory: {
      Row: {
        category: string | null;
        created_at: string;
        expiry_date: string | null;
        id: `inv_${number}` | `gen_inv_${number}`;
        ingredient_id: `ing_${number}` | `gen_ing_${number}` | null;
        location: string | null;
        name: string;
        notes: string | null;
        purchase_date: string | null;
        quantity: number;
        unit: string;
        updated_at: string;
      };
      Filters: {
        category: string;
        created_at: string;
        expiry_date: string;
        id: `inv_${number}` | `gen_inv_${number}`;
        ingredient_id: `ing_${number}` | `gen_ing_${number}`;
        location: string;
        name: string;
        notes: string;
        purchase_date: string;
        quantity: number;
        unit: string;
        updated_at: string;
      };
      Insert: {
        category?: string | null;
        expiry_date?: string | null;
        id?: `gen_inv_${number}`;
        ingredient_id?: `ing_${number}` | `gen_ing_${number}` | null;
        location?: string | null;
        name: string;
        notes?: string | null;
        purchase_date?: string | null;
        quantity: number;
        unit: string;
      };
      Update: {
        category?: string | null;
        expiry_date?: string | null;
        ingredient_id?: `ing_${number}` | `gen_ing_${number}` | null;
        location?: string | null;
        name?: string;
        notes?: string | null;
        purchase_date?: string | null;
        quantity?: number;
        unit?: string;
      };
      Delete: true;
      Relations: never;
    };
    meal_plans: {
      Row: {
        created_at: string;
        date: string;
        id: `meal_${number}` | `gen_meal_${number}`;
        meal_type: 'breakfast' | 'lunch' | 'dinner' | 'snack' | 'other';
        notes: string | null;
        recipe_id: `recipe_${number}` | `gen_recipe_${number}` | null;
        servings: number;
      };
      Filters: {
        created_at: string;
        date: string;
        id: `meal_${number}` | `gen_meal_${number}`;
        meal_type: 'breakfast' | 'lunch' | 'dinner' | 'snack' | 'other';
        notes: string;
        recipe_id: `recipe_${number}` | `gen_recipe_${number}`;
        servings: number;
      };
      Insert: {
        date: string;
        id?: `gen_meal_${number}`;
        meal_type: 'breakfast' | 'lunch' | 'dinner' | 'snack' | 'other';
        notes?: string | null;
        recipe_id?: `recipe_${number}` | `gen_recipe_${number}` | null;
        servings?: number;
      };
      Update: {
        date?: string;
        meal_type?: 'breakfast' | 'lunch' | 'dinner' | 'snack' | 'other';
        notes?: string | null;
        recipe_id?: `recipe_${number}` | `gen_recipe_${number}` | null;
        servings?: number;
      };
      Delete: true;
      Relations: never;
    };
    preferences: {
      Row: {
        allergies: string[] | null;
        assumed_staples: (`ing_${number}` | `gen_ing_${number}`)[] | null;
        available_equipment: string[] | null;
        cooking_frequency: string | null;
        cooking_skill_level: 'beginner' | 'intermediate' | 'advanced' | null;
        current_vibes: string[] | null;
        dietary_restrictions: string[] | null;
        disliked_ingredients: string[] | null;
        favorite_cuisines: string[] | null;
        household_adults: number | null;
        household_babies: number | null;
        household_kids: number | null;
        id: `pref_${number}` | `gen_pref_${number}`;
        nutrition_goals: string[] | null;
        planning_rhythm: string[] | null;
        preferred_complexity: string | null;
        subdomain_guidance: Json | null;
        time_budget_minutes: number | null;
        updated_at: string;
      };
      Filters: {
        allergies: string[];
        assumed_staples: (`ing_${number}` | `gen_ing_${number}`)[];
        available_equipment: string[];
        cooking_frequency: string;
        cooking_skill_level: 'beginner' | 'intermediate' | 'advanced';
        current_vibes: string[];
        dietary_restrictions: string[];
        disliked_ingredients: string[];
        favorite_cuisines: string[];
        household_adults: number;
        household_babies: number;
        household_kids: number;
        id: `pref_${number}` | `gen_pref_${number}`;
        nutrition_goals: string[];
        planning_rhythm: string[];
        preferred_complexity: string;
        subdomain_guidance: Json;
        time_budget_minutes: number;
        updated_at: string;
      };
      Insert: {
        allergies?: string[] | null;
        assumed_staples?: (`ing_${number}` | `gen_ing_${number}`)[] | null;
        available_equipment?: string[] | null;
        cooking_frequency?: string | null;
        cooking_skill_level?: 'beginner' | 'intermediate' | 'advanced' | null;
        current_vibes?: string[] | null;
        dietary_restrictions?: string[] | null;
        disliked_ingredients?: string[] | null;
        favorite_cuisines?: string[] | null;
        household_adults?: number | null;
        household_babies?: number | null;
        household_kids?: number | null;
        id?: `gen_pref_${number}`;
        nutrition_goals?: string[] | null;
        planning_rhythm?: string[] | null;
        preferred_complexity?: string | null;
        subdomain_guidance?: Json | null;
        time_budget_minutes?: number | null;
      };
      Update: {
        allergies?: string[] | null;
        assumed_staples?: (`ing_${number}` | `gen_ing_${number}`)[] | null;
        available_equipment?: string[] | null;
        cooking_frequency?: string | null;
        cooking_skill_level?: 'beginner' | 'intermediate' | 'advanced' | null;
        current_vibes?: string[] | null;
        dietary_restrictions?: string[] | null;
        disliked_ingredients?: string[] | null;
        favorite_cuisines?: string[] | null;
        household_adults?: number | null;
        household_babies?: number | null;
        household_kids?: number | null;
        nutrition_goals?: string[] | null;
        planning_rhythm?: string[] | null;
        preferred_complexity?: string | null;
        subdomain_guidance?: Json | null;
        time_budget_minutes?: number | null;
      };
      Delete: true;
      Relations: never;
    };
    recipe_ingredients: {
      Row: {
        category: string | null;
        id: `ri_${number}` | `gen_ri_${number}`;
        ingredient_id: `ing_${number}` | `gen_ing_${number}` | null;
        is_optional: boolean;
        name: string;
        notes: string | null;
        quantity: number | null;
        recipe_id: `recipe_${number}` | `gen_recipe_${number}`;
        unit: string | null;
      };
      Filters: {
        category: string;
        id: `ri_${number}` | `gen_ri_${number}`;
        ingredient_id: `ing_${number}` | `gen_ing_${number}`;
        is_optional: boolean;
        name: string;
        notes: string;
        quantity: number;
        recipe_id: `recipe_${number}` | `gen_recipe_${number}`;
        unit: string;
      };
      Insert: {
        category?: string | null;
        id?: `gen_ri_${number}`;
        ingredient_id?: `ing_${number}` | `gen_ing_${number}` | null;
        is_optional?: boolean;
        name: string;
        notes?: string | null;
        quantity?: number | null;
        recipe_id: `recipe_${number}` | `gen_recipe_${number}`;
        unit?: string | null;
      };
      Update: {
        category?: string | null;
        ingredient_id?: `ing_${number}` | `gen_ing_${number}` | null;
        is_optional?: boolean;
        name?: string;
        notes?: string | null;
        quantity?: number | null;
        recipe_id?: `recipe_${number}` | `gen_recipe_${number}`;
        unit?: string | null;
      };
      Delete: true;
      Relations: never;
    };
    recipes: {
      Row: {
        cook_time_minutes: number | null;
        created_at: string;
        cuisine: string | null;
        description: string | null;
        difficulty: 'easy' | 'medium' | 'hard' | null;
        equipment_tags: string[] | null;
        flavor_tags: ('spicy' | 'mild' | 'savory' | 'sweet' | 'tangy' | 'rich' | 'light' | 'umami' | 'other')[] | null;
        health_tags: string[] | null;
        id: `recipe_${number}` | `gen_recipe_${number}`;
        instructions: string[];
        is_system: boolean;
        name: string;
        occasions: string[] | null;
        parent_recipe_id: `recipe_${number}` | `gen_recipe_${number}` | null;
        prep_time_minutes: number | null;
        servings: number | null;
        source_url: string | null;
        tags: string[];
      };
      Filters: {
        cook_time_minutes: number;
        created_at: string;
        cuisine: string;
        description: string;
        difficulty: 'easy' | 'medium' | 'hard';
        equipment_tags: string[];
        flavor_tags: ('spicy' | 'mild' | 'savory' | 'sweet' | 'tangy' | 'rich' | 'light' | 'umami' | 'other')[];
        health_tags: string[];
        id: `recipe_${number}` | `gen_recipe_${number}`;
        instructions: string[];
        is_system: boolean;
        name: string;
        occasions: string[];
        parent_recipe_id: `recipe_${number}` | `gen_recipe_${number}`;
        prep_time_minutes: number;
        servings: number;
        source_url: string;
        tags: string[];
        _semantic: string;
      };
      Insert: {
        cook_time_minutes?: number | null;
        cuisine?: string | null;
        description?: string | null;
        difficulty?: 'easy' | 'medium' | 'hard' | null;
        equipment_tags?: string[] | null;
        flavor_tags?: ('spicy' | 'mild' | 'savory' | 'sweet' | 'tangy' | 'rich' | 'light' | 'umami' | 'other')[] | null;
        health_tags?: string[] | null;
        id?: `gen_recipe_${number}`;
        instructions: string[];
        name: string;
        occasions?: string[] | null;
        parent_recipe_id?: `recipe_${number}` | `gen_recipe_${number}` | null;
        prep_time_minutes?: number | null;
        servings?: number | null;
        source_url?: string | null;
        tags?: string[];
      };
      Update: {
        cook_time_minutes?: number | null;
        cuisine?: string | null;
        description?: string | null;
        difficulty?: 'easy' | 'medium' | 'hard' | null;
        equipment_tags?: string[] | null;
        flavor_tags?: ('spicy' | 'mild' | 'savory' | 'sweet' | 'tangy' | 'rich' | 'light' | 'umami' | 'other')[] | null;
        health_tags?: string[] | null;
        instructions?: string[];
        name?: string;
        occasions?: string[] | null;
        parent_recipe_id?: `recipe_${number}` | `gen_recipe_${number}` | null;
        prep_time_minutes?: number | null;
        servings?: number | null;
        source_url?: string | null;
        tags?: string[];
      };
      Delete: true;
      Relations: 'recipe_ingredients';
    };
    shopping_list: {
      Row: {
        category: string | null;
        created_at: string;
        id: `shop_${number}` | `gen_shop_${number}`;
        ingredient_id: `ing_${number}` | `gen_ing_${number}` | null;
        is_purchased: boolean;
        name: string;
        notes: string | null;
        quantity: number | null;
        source: string | null;
        unit: string | null;
      };
      Filters: {
        category: string;
        created_at: string;
        id: `shop_${number}` | `gen_shop_${number}`;
        ingredient_id: `ing_${number}` | `gen_ing_${number}`;
        is_purchased: boolean;
        name: string;
        notes: string;
        quantity: number;
        source: string;
        unit: string;
      };
      Insert: {
        category?: string | null;
        id?: `gen_shop_${number}`;
        ingredient_id?: `ing_${number}` | `gen_ing_${number}` | null;
        is_purchased?: boolean;
        name: string;
        notes?: string | null;
        quantity?: number | null;
        source?: string | null;
        unit?: string | null;
      };
      Update: {
        category?: string | null;
        ingredient_id?: `ing_${number}` | `gen_ing_${number}` | null;
        is_purchased?: boolean;
        name?: string;
        notes?: string | null;
        quantity?: number | null;
        source?: string | null;
        unit?: string | null;
      };
      Delete: true;
      Relations: never;
    };
    tasks: {
      Row: {
        category: 'prep' | 'shopping' | 'cleanup' | 'other' | null;
        completed: boolean;
        created_at: string;
        due_date: string | null;
        id: `task_${number}` | `gen_task_${number}`;
        meal_plan_id: `meal_${number}` | `gen_meal_${number}` | null;
        recipe_id: `recipe_${number}` | `gen_recipe_${number}` | null;
        title: string;
        updated_at: string;
      };
      Filters: {
        category: 'prep' | 'shopping' | 'cleanup' | 'other';
        completed: boolean;
        created_at: string;
        due_date: string;
        id: `task_${number}` | `gen_task_${number}`;
        meal_plan_id: `meal_${number}` | `gen_meal_${number}`;
        recipe_id: `recipe_${number}` | `gen_recipe_${number}`;
        title: string;
        updated_at: string;
      };
      Insert: {
        category?: 'prep' | 'shopping' | 'cleanup' | 'other' | null;
        completed?: boolean;
        due_date?: string | null;
        id?: `gen_task_${number}`;
        meal_plan_id?: `meal_${number}` | `gen_meal_${number}` | null;
        recipe_id?: `recipe_${number}` | `gen_recipe_${number}` | null;
        title: string;
      };
      Update: {
        category?: 'prep' | 'shopping' | 'cleanup' | 'other' | null;
        completed?: boolean;
        due_date?: string | null;
        meal_plan_id?: `meal_${number}` | `gen_meal_${number}` | null;
        recipe_id?: `recipe_${number}` | `gen_recipe_${number}` | null;
        title?: string;
      };
      Delete: true;
      Relations: never;
    };
  };
  functions: {};
}
