// ESLint flat config: typescript-eslint's recommended rules over the package, tests, scripts and
// examples. Formatting is prettier's business (`npm run format`), not ESLint's.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      "provider/docs/**",
      "coverage/**",
      "tests/bench/.tmp/**",
      "**/*.d.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "commonjs",
      globals: {
        require: "readonly",
        module: "writable",
        process: "readonly",
        console: "readonly",
        __dirname: "readonly",
        Buffer: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        setImmediate: "readonly",
        URL: "readonly",
      },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // `_`-prefixed parameters are kept for a signature's sake (provider methods, callbacks).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      // Off: the compile target's lib is ES2020, whose Error has no `cause` option; the typed errors
      // (provider/api/errors.ts) say what they wrap in their message instead.
      "preserve-caught-error": "off",
      // Off: require() is used on purpose where import cannot do the job: lazy loads that keep the
      // dynamic-provider host's cold start short (docs/performance.md), modules resolved from a
      // program's own directory (the testing kit), the serialized providers' `pulumi-cdn-zones/h`,
      // and the plain CommonJS scripts.
      "@typescript-eslint/no-require-imports": "off",
    },
  },
  {
    // Every function of the package fits on a screen (issue 27).
    files: ["provider/**/*.ts"],
    rules: { "max-lines-per-function": ["error", { max: 80, skipBlankLines: false, skipComments: false }] },
  },
  {
    // The emulator's handlers take their method's arguments as the method table types them (provider/emulator/args.ts):
    // none asserts a type. What holds a group (`pullzone`) is named group: a kind is `pull` (api/kinds.ts).
    files: ["provider/emulator/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "Identifier[typeAnnotation.typeAnnotation.typeName.name='ZoneGroup'][name!='group']",
          message: "A parameter holding a ZoneGroup is named `group` (a kind is `pull`: api/kinds.ts).",
        },
        {
          selector: "VariableDeclarator[init.callee.name='groupOf'][id.name!='group']",
          message: "What groupOf() returns is named `group` (a kind is `pull`: api/kinds.ts).",
        },
      ],
    },
  },
  {
    files: ["provider/emulator/handlers/**/*.ts"],
    rules: {
      "@typescript-eslint/consistent-type-assertions": ["error", { assertionStyle: "never" }],
      "@typescript-eslint/no-non-null-assertion": "error",
    },
  },
  {
    // The generated zone classes (scripts/generate-kinds.js) merge an interface of their outputs, typed from their
    // Args so hovers show each input's doc: a type only, which no class field overwrites; live zones compute none.
    files: ["provider/resources/kinds/*.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-declaration-merging": "off",
      "@typescript-eslint/no-empty-object-type": ["error", { allowInterfaces: "with-single-extends" }],
    },
  },
  {
    files: ["tests/**/*.ts"],
    // Tests read untyped wire data and emulator internals; an `any` there is a shortcut, not an API.
    rules: { "@typescript-eslint/no-explicit-any": "off" },
    languageOptions: {
      globals: {
        describe: "readonly",
        test: "readonly",
        it: "readonly",
        expect: "readonly",
        beforeAll: "readonly",
        afterAll: "readonly",
        beforeEach: "readonly",
        afterEach: "readonly",
        jest: "readonly",
      },
    },
  },
);
