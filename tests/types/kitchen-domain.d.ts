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
    recipes: {
      Row: {
        id: `recipe_${number}` | `gen_recipe_${number}`;
        name: string;
        description: string | null;
        cuisine: string | null;
        difficulty: 'easy' | 'medium' | 'hard' | null;
        prep_time_minutes: number | null;
        cook_time_minutes: number | null;
        servings: number | null;
        instructions: string[];
        tags: string[];
        source_url: string | null;
        is_system: boolean;
        parent_recipe_id: `recipe_${number}` | `gen_recipe_${number}` | null;
        occasions: string[] | null;
        health_tags: string[] | null;
        flavor_tags: ('spicy' | 'mild' | 'savory' | 'sweet' | 'tangy' | 'rich' | 'light' | 'umami' | 'other')[] | null;
        equipment_tags: string[] | null;
        created_at: string;
      };
      Filters: {
        id: `recipe_${number}` | `gen_recipe_${number}`;
        name: string;
        description: string;
        cuisine: string;
        difficulty: 'easy' | 'medium' | 'hard';
        prep_time_minutes: number;
        cook_time_minutes: number;
        servings: number;
        instructions: string[];
        tags: string[];
        source_url: string;
        is_system: boolean;
        parent_recipe_id: `recipe_${number}` | `gen_recipe_${number}`;
        occasions: string[];
        health_tags: string[];
        flavor_tags: ('spicy' | 'mild' | 'savory' | 'sweet' | 'tangy' | 'rich' | 'light' | 'umami' | 'other')[];
        equipment_tags: string[];
        created_at: string;
        _semantic: string;
      };
      Insert: {
        id?: `gen_recipe_${number}`;
        name: string;
        description?: string | null;
        cuisine?: string | null;
        difficulty?: 'easy' | 'medium' | 'hard' | null;
        prep_time_minutes?: number | null;
        cook_time_minutes?: number | null;
        servings?: number | null;
        instructions: string[];
        tags?: string[];
        source_url?: string | null;
        parent_recipe_id?: `recipe_${number}` | `gen_recipe_${number}` | null;
        occasions?: string[] | null;
        health_tags?: string[] | null;
        flavor_tags?: ('spicy' | 'mild' | 'savory' | 'sweet' | 'tangy' | 'rich' | 'light' | 'umami' | 'other')[] | null;
        equipment_tags?: string[] | null;
      };
      Update: {
        name?: string;
        description?: string | null;
        cuisine?: string | null;
        difficulty?: 'easy' | 'medium' | 'hard' | null;
        prep_time_minutes?: number | null;
        cook_time_minutes?: number | null;
        servings?: number | null;
        instructions?: string[];
        tags?: string[];
        source_url?: string | null;
        parent_recipe_id?: `recipe_${number}` | `gen_recipe_${number}` | null;
        occasions?: string[] | null;
        health_tags?: string[] | null;
        flavor_tags?: ('spicy' | 'mild' | 'savory' | 'sweet' | 'tangy' | 'rich' | 'light' | 'umami' | 'other')[] | null;
        equipment_tags?: string[] | null;
      };
      Relations: 'recipe_ingredients';
    };
    recipe_ingredients: {
      Row: {
        id: `ri_${number}` | `gen_ri_${number}`;
        recipe_id: `recipe_${number}` | `gen_recipe_${number}`;
        ingredient_id: `ing_${number}` | `gen_ing_${number}` | null;
        name: string;
        quantity: number | null;
        unit: string | null;
        notes: string | null;
        is_optional: boolean;
        category: string | null;
      };
      Filters: {
        id: `ri_${number}` | `gen_ri_${number}`;
        recipe_id: `recipe_${number}` | `gen_recipe_${number}`;
        ingredient_id: `ing_${number}` | `gen_ing_${number}`;
        name: string;
        quantity: number;
        unit: string;
        notes: string;
        is_optional: boolean;
        category: string;
      };
      Insert: {
        id?: `gen_ri_${number}`;
        recipe_id: `recipe_${number}` | `gen_recipe_${number}`;
        ingredient_id?: `ing_${number}` | `gen_ing_${number}` | null;
        name: string;
        quantity?: number | null;
        unit?: string | null;
        notes?: string | null;
        is_optional?: boolean;
        category?: string | null;
      };
      Update: {
        recipe_id?: `recipe_${number}` | `gen_recipe_${number}`;
        ingredient_id?: `ing_${number}` | `gen_ing_${number}` | null;
        name?: string;
        quantity?: number | null;
        unit?: string | null;
        notes?: string | null;
        is_optional?: boolean;
        category?: string | null;
      };
      Relations: never;
    };
    ingredients: {
      Row: {
        id: `ing_${number}` | `gen_ing_${number}`;
        name: string;
        aliases: string[];
        category: string | null;
        default_unit: string | null;
        nutrition_per_100g: Json | null;
        flavor_compounds: string[] | null;
        is_system: boolean;
        parent_category: 'produce' | 'protein' | 'dairy' | 'grains' | 'pantry' | 'spices' | 'baking' | 'specialty';
        family: string;
        cuisines: string[];
        tier: number;
        created_at: string;
      };
      Filters: {
        id: `ing_${number}` | `gen_ing_${number}`;
        name: string;
        aliases: string[];
        category: string;
        default_unit: string;
        nutrition_per_100g: Json;
        flavor_compounds: string[];
        is_system: boolean;
        parent_category: 'produce' | 'protein' | 'dairy' | 'grains' | 'pantry' | 'spices' | 'baking' | 'specialty';
        family: string;
        cuisines: string[];
        tier: number;
        created_at: string;
      };
      Insert: never;
      Update: never;
      Relations: never;
    };
    inventory: {
      Row: {
        id: `inv_${number}` | `gen_inv_${number}`;
        ingredient_id: `ing_${number}` | `gen_ing_${number}` | null;
        name: string;
        quantity: number;
        unit: string;
        location: string | null;
        category: string | null;
        notes: string | null;
        expiry_date: string | null;
        purchase_date: string | null;
        created_at: string;
        updated_at: string;
      };
      Filters: {
        id: `inv_${number}` | `gen_inv_${number}`;
        ingredient_id: `ing_${number}` | `gen_ing_${number}`;
        name: string;
        quantity: number;
        unit: string;
        location: string;
        category: string;
        notes: string;
        expiry_date: string;
        purchase_date: string;
        created_at: string;
        updated_at: string;
      };
      Insert: {
        id?: `gen_inv_${number}`;
        ingredient_id?: `ing_${number}` | `gen_ing_${number}` | null;
        name: string;
        quantity: number;
        unit: string;
        location?: string | null;
        category?: string | null;
        notes?: string | null;
        expiry_date?: string | null;
        purchase_date?: string | null;
      };
      Update: {
        ingredient_id?: `ing_${number}` | `gen_ing_${number}` | null;
        name?: string;
        quantity?: number;
        unit?: string;
        location?: string | null;
        category?: string | null;
        notes?: string | null;
        expiry_date?: string | null;
        purchase_date?: string | null;
      };
      Relations: never;
    };
    shopping_list: {
      Row: {
        id: `shop_${number}` | `gen_shop_${number}`;
        ingredient_id: `ing_${number}` | `gen_ing_${number}` | null;
        name: string;
        quantity: number | null;
        unit: string | null;
        category: string | null;
        is_purchased: boolean;
        source: string | null;
        notes: string | null;
        created_at: string;
      };
      Filters: {
        id: `shop_${number}` | `gen_shop_${number}`;
        ingredient_id: `ing_${number}` | `gen_ing_${number}`;
        name: string;
        quantity: number;
        unit: string;
        category: string;
        is_purchased: boolean;
        source: string;
        notes: string;
        created_at: string;
      };
      Insert: {
        id?: `gen_shop_${number}`;
        ingredient_id?: `ing_${number}` | `gen_ing_${number}` | null;
        name: string;
        quantity?: number | null;
        unit?: string | null;
        category?: string | null;
        is_purchased?: boolean;
        source?: string | null;
        notes?: string | null;
      };
      Update: {
        ingredient_id?: `ing_${number}` | `gen_ing_${number}` | null;
        name?: string;
        quantity?: number | null;
        unit?: string | null;
        category?: string | null;
        is_purchased?: boolean;
        source?: string | null;
        notes?: string | null;
      };
      Relations: never;
    };
    meal_plans: {
      Row: {
        id: `meal_${number}` | `gen_meal_${number}`;
        date: string;
        meal_type: 'breakfast' | 'lunch' | 'dinner' | 'snack' | 'other';
        recipe_id: `recipe_${number}` | `gen_recipe_${number}` | null;
        notes: string | null;
        servings: number;
        created_at: string;
      };
      Filters: {
        id: `meal_${number}` | `gen_meal_${number}`;
        date: string;
        meal_type: 'breakfast' | 'lunch' | 'dinner' | 'snack' | 'other';
        recipe_id: `recipe_${number}` | `gen_recipe_${number}`;
        notes: string;
        servings: number;
        created_at: string;
      };
      Insert: {
        id?: `gen_meal_${number}`;
        date: string;
        meal_type: 'breakfast' | 'lunch' | 'dinner' | 'snack' | 'other';
        recipe_id?: `recipe_${number}` | `gen_recipe_${number}` | null;
        notes?: string | null;
        servings?: number;
      };
      Update: {
        date?: string;
        meal_type?: 'breakfast' | 'lunch' | 'dinner' | 'snack' | 'other';
        recipe_id?: `recipe_${number}` | `gen_recipe_${number}` | null;
        notes?: string | null;
        servings?: number;
      };
      Relations: never;
    };
    tasks: {
      Row: {
        id: `task_${number}` | `gen_task_${number}`;
        title: string;
        due_date: string | null;
        category: 'prep' | 'shopping' | 'cleanup' | 'other' | null;
        completed: boolean;
        recipe_id: `recipe_${number}` | `gen_recipe_${number}` | null;
        meal_plan_id: `meal_${number}` | `gen_meal_${number}` | null;
        created_at: string;
        updated_at: string;
      };
      Filters: {
        id: `task_${number}` | `gen_task_${number}`;
        title: string;
        due_date: string;
        category: 'prep' | 'shopping' | 'cleanup' | 'other';
        completed: boolean;
        recipe_id: `recipe_${number}` | `gen_recipe_${number}`;
        meal_plan_id: `meal_${number}` | `gen_meal_${number}`;
        created_at: string;
        updated_at: string;
      };
      Insert: {
        id?: `gen_task_${number}`;
        title: string;
        due_date?: string | null;
        category?: 'prep' | 'shopping' | 'cleanup' | 'other' | null;
        completed?: boolean;
        recipe_id?: `recipe_${number}` | `gen_recipe_${number}` | null;
        meal_plan_id?: `meal_${number}` | `gen_meal_${number}` | null;
      };
      Update: {
        title?: string;
        due_date?: string | null;
        category?: 'prep' | 'shopping' | 'cleanup' | 'other' | null;
        completed?: boolean;
        recipe_id?: `recipe_${number}` | `gen_recipe_${number}` | null;
        meal_plan_id?: `meal_${number}` | `gen_meal_${number}` | null;
      };
      Relations: never;
    };
    preferences: {
      Row: {
        id: `pref_${number}` | `gen_pref_${number}`;
        dietary_restrictions: string[] | null;
        allergies: string[] | null;
        favorite_cuisines: string[] | null;
        disliked_ingredients: string[] | null;
        cooking_skill_level: 'beginner' | 'intermediate' | 'advanced' | null;
        household_adults: number | null;
        household_kids: number | null;
        household_babies: number | null;
        nutrition_goals: string[] | null;
        cooking_frequency: string | null;
        available_equipment: string[] | null;
        time_budget_minutes: number | null;
        preferred_complexity: string | null;
        planning_rhythm: string[] | null;
        current_vibes: string[] | null;
        subdomain_guidance: Json | null;
        assumed_staples: (`ing_${number}` | `gen_ing_${number}`)[] | null;
        updated_at: string;
      };
      Filters: {
        id: `pref_${number}` | `gen_pref_${number}`;
        dietary_restrictions: string[];
        allergies: string[];
        favorite_cuisines: string[];
        disliked_ingredients: string[];
        cooking_skill_level: 'beginner' | 'intermediate' | 'advanced';
        household_adults: number;
        household_kids: number;
        household_babies: number;
        nutrition_goals: string[];
        cooking_frequency: string;
        available_equipment: string[];
        time_budget_minutes: number;
        preferred_complexity: string;
        planning_rhythm: string[];
        current_vibes: string[];
        subdomain_guidance: Json;
        assumed_staples: (`ing_${number}` | `gen_ing_${number}`)[];
        updated_at: string;
      };
      Insert: {
        id?: `gen_pref_${number}`;
        dietary_restrictions?: string[] | null;
        allergies?: string[] | null;
        favorite_cuisines?: string[] | null;
        disliked_ingredients?: string[] | null;
        cooking_skill_level?: 'beginner' | 'intermediate' | 'advanced' | null;
        household_adults?: number | null;
        household_kids?: number | null;
        household_babies?: number | null;
        nutrition_goals?: string[] | null;
        cooking_frequency?: string | null;
        available_equipment?: string[] | null;
        time_budget_minutes?: number | null;
        preferred_complexity?: string | null;
        planning_rhythm?: string[] | null;
        current_vibes?: string[] | null;
        subdomain_guidance?: Json | null;
        assumed_staples?: (`ing_${number}` | `gen_ing_${number}`)[] | null;
      };
      Update: {
        dietary_restrictions?: string[] | null;
        allergies?: string[] | null;
        favorite_cuisines?: string[] | null;
        disliked_ingredients?: string[] | null;
        cooking_skill_level?: 'beginner' | 'intermediate' | 'advanced' | null;
        household_adults?: number | null;
        household_kids?: number | null;
        household_babies?: number | null;
        nutrition_goals?: string[] | null;
        cooking_frequency?: string | null;
        available_equipment?: string[] | null;
        time_budget_minutes?: number | null;
        preferred_complexity?: string | null;
        planning_rhythm?: string[] | null;
        current_vibes?: string[] | null;
        subdomain_guidance?: Json | null;
        assumed_staples?: (`ing_${number}` | `gen_ing_${number}`)[] | null;
      };
      Relations: never;
    };
    cooking_log: {
      Row: {
        id: `log_${number}` | `gen_log_${number}`;
        recipe_id: `recipe_${number}` | `gen_recipe_${number}` | null;
        cooked_at: string;
        servings: number | null;
        rating: number | null;
        notes: string | null;
        from_meal_plan_id: `meal_${number}` | `gen_meal_${number}` | null;
        created_at: string;
      };
      Filters: {
        id: `log_${number}` | `gen_log_${number}`;
        recipe_id: `recipe_${number}` | `gen_recipe_${number}`;
        cooked_at: string;
        servings: number;
        rating: number;
        notes: string;
        from_meal_plan_id: `meal_${number}` | `gen_meal_${number}`;
        created_at: string;
      };
      Insert: {
        id?: `gen_log_${number}`;
        recipe_id?: `recipe_${number}` | `gen_recipe_${number}` | null;
        cooked_at?: string;
        servings?: number | null;
        rating?: number | null;
        notes?: string | null;
        from_meal_plan_id?: `meal_${number}` | `gen_meal_${number}` | null;
      };
      Update: {
        recipe_id?: `recipe_${number}` | `gen_recipe_${number}` | null;
        cooked_at?: string;
        servings?: number | null;
        rating?: number | null;
        notes?: string | null;
        from_meal_plan_id?: `meal_${number}` | `gen_meal_${number}` | null;
      };
      Relations: never;
    };
  };
  functions: {};
}
