import { describe, expect, it } from "vitest";
import type { DetectedRunner, RunnerId } from "../runners/project-runners.ts";
import { recogniseTestCommand, splitScript, type TestCommandContext } from "./test-commands.ts";

function runner(id: RunnerId): DetectedRunner {
  return { id, languages: ["typescript"], package_dir: "", command: [id], evidence: "test" };
}

const none: TestCommandContext = { runners: [] };

/** A command line as the shell tokenises it (tests of splitScript below keep this honest). */
function line(text: string, context: TestCommandContext = none) {
  return recogniseTestCommand(splitScript(text), context);
}

describe("recogniseTestCommand: direct runner commands", () => {
  it.each<[string, RunnerId]>([
    ["npx vitest", "vitest"],
    ["npx vitest run src/a.test.ts", "vitest"],
    ["npx -y vitest@2.1.0 run", "vitest"],
    ["npx jest", "jest"],
    ["pnpm exec vitest run", "vitest"],
    ["pnpm dlx vitest run", "vitest"],
    ["yarn exec jest", "jest"],
    ["bunx vitest run", "vitest"],
    ["bun x vitest", "vitest"],
    ["npm exec -- jest --ci", "jest"],
    ["vitest run", "vitest"],
    ["vitest", "vitest"],
    ["vitest -c vitest.unit.config.ts", "vitest"],
    ["./node_modules/.bin/vitest run", "vitest"],
    ["jest", "jest"],
    ["jest -c jest.config.js src", "jest"],
    ["mocha", "mocha"],
    ["mocha 'test/**/*.spec.js'", "mocha"],
    ["node --test", "node-test"],
    ["node --test test/a.test.mjs", "node-test"],
    ["node --import tsx --test src/a.test.ts", "node-test"],
    ["node --test-reporter spec --test", "node-test"],
    ["tsx --test src/a.test.ts", "node-test"],
    ["pytest", "pytest"],
    ["pytest -q tests/test_a.py::test_x", "pytest"],
    ["pytest -c pytest.ini", "pytest"],
    ["py.test", "pytest"],
    [".venv/bin/pytest -x", "pytest"],
    ["python -m pytest", "pytest"],
    ["python3 -m pytest tests", "pytest"],
    ["python3.12 -m pytest", "pytest"],
    [".venv/bin/python -m pytest", "pytest"],
    ["python -X dev -m pytest", "pytest"],
    ["python -mpytest", "pytest"],
    ["uv run pytest", "pytest"],
    ["uv run --with pytest-cov pytest -q", "pytest"],
    ["uv run python -m pytest", "pytest"],
    ["uv run -m pytest", "pytest"],
    ["uvx pytest", "pytest"],
    ["uv tool run pytest", "pytest"],
    ["poetry run pytest", "pytest"],
    ["poetry run python -m pytest", "pytest"],
    ["pipenv run pytest", "pytest"],
    ["pdm run pytest", "pytest"],
    ["hatch test", "pytest"],
    ["python -m unittest", "unittest"],
    ["python3 -m unittest discover -s tests", "unittest"],
    ["python manage.py test", "unittest"],
    ["go test ./...", "go"],
    ["go test -run TestCharge ./billing", "go"],
    ["gotestsum -- ./...", "go"],
    ["cargo test", "cargo"],
    ["cargo t", "cargo"],
    ["cargo +nightly test --lib", "cargo"],
    ["cargo nextest run", "nextest"],
    ["cargo-nextest nextest run", "nextest"],
    ["bundle exec rspec", "rspec"],
    ["bundle exec rspec spec/models/user_spec.rb", "rspec"],
    ["rspec", "rspec"],
    ["bin/rspec", "rspec"],
    ["rails test", "minitest"],
    ["bin/rails test test/models/user_test.rb", "minitest"],
    ["bundle exec rails test", "minitest"],
    ["rails test:models", "minitest"],
    ["rake test", "minitest"],
    ["bundle exec rake spec", "rspec"],
    ["phpunit", "phpunit"],
    ["vendor/bin/phpunit", "phpunit"],
    ["./vendor/bin/phpunit --filter BillingTest", "phpunit"],
    ["php vendor/bin/phpunit", "phpunit"],
    ["vendor/bin/paratest", "phpunit"],
    ["pest", "pest"],
    ["vendor/bin/pest", "pest"],
    ["php artisan test", "phpunit"],
    ["mvn test", "maven"],
    ["mvn -q -pl core test -Dtest=BillingTest", "maven"],
    ["./mvnw clean verify", "maven"],
    ["gradle test", "gradle"],
    ["./gradlew test", "gradle"],
    ["./gradlew :app:test --tests com.acme.BillingTest", "gradle"],
    ["gradlew.bat check", "gradle"],
    ["./gradlew testDebugUnitTest", "gradle"],
    ["dotnet test", "dotnet"],
    ["dotnet test tests/Billing.Tests", "dotnet"],
    ["swift test", "swift"],
    ["swift test --filter BillingTests", "swift"],
    ["deno test", "deno"],
    ["deno test --allow-read", "deno"],
    ["bun test", "bun"],
    ["bun test src/a.test.ts", "bun"],
  ])("%s → %s", (command, expected) => {
    const result = line(command);
    expect(result).toMatchObject({ isTest: true, runner: expected, e2e: false });
  });

  it("php artisan test runs pest when pest is the detected runner", () => {
    expect(line("php artisan test", { runners: [runner("pest")] }).runner).toBe("pest");
  });
});

describe("recogniseTestCommand: wrappers", () => {
  it.each<[string, RunnerId]>([
    ["CI=1 npx vitest run", "vitest"],
    ["FOO=bar BAZ=1 pytest", "pytest"],
    ["env CI=true jest", "jest"],
    ["env -u HOME go test ./...", "go"],
    ["time cargo test", "cargo"],
    ["timeout 120 pytest -x", "pytest"],
    ["timeout -s KILL 60 go test ./...", "go"],
    ["nice -n 10 pytest", "pytest"],
    ["cross-env NODE_ENV=test jest", "jest"],
    ["dotenv -e .env.test -- vitest run", "vitest"],
    ["xvfb-run -a npx vitest run", "vitest"],
    ["bash -c 'cd web && npx vitest run'", "vitest"],
    ['sh -c "pytest -q"', "pytest"],
    ["bash -lc 'go test ./...'", "go"],
  ])("%s → %s", (command, expected) => {
    expect(line(command)).toMatchObject({ isTest: true, runner: expected });
  });
});

describe("recogniseTestCommand: package.json scripts", () => {
  const scripts = {
    test: "vitest run",
    "test:unit": "vitest run --project unit",
    "test:e2e": "playwright test",
    "test:all": "npm run test:unit && npm run test:e2e",
    e2e: "cypress run",
    ci: "npm run lint && npm test",
    lint: "eslint .",
    typecheck: "tsc --noEmit",
    "test:types": "tsc --noEmit",
    mono: "turbo run test",
    loop: "npm run loop2",
    loop2: "npm run loop",
    jest: "cross-env NODE_ENV=test jest --ci",
    node: "node --test test/",
  };
  const ctx: TestCommandContext = { packageScripts: scripts, runners: [runner("vitest")] };

  it.each<[string, RunnerId | undefined, boolean]>([
    ["npm test", "vitest", false],
    ["npm t", "vitest", false],
    ["npm run test", "vitest", false],
    ["npm run-script test", "vitest", false],
    ["npm run test -- src/a.test.ts", "vitest", false],
    ["npm --silent test", "vitest", false],
    ["npm run test:unit", "vitest", false],
    ["pnpm test", "vitest", false],
    ["pnpm run test:unit", "vitest", false],
    ["pnpm test:unit", "vitest", false],
    ["yarn test", "vitest", false],
    ["yarn run test", "vitest", false],
    ["yarn test:unit", "vitest", false],
    ["bun run test", "vitest", false],
    ["bun run test:unit", "vitest", false],
    ["node --run test", "vitest", false],
    ["npm run test:all", "vitest", false],
    ["npm run ci", "vitest", false],
    ["npm run jest", "jest", false],
    ["npm run node", "node-test", false],
    ["npm run mono", "vitest", false],
    ["npm run test:e2e", undefined, true],
    ["pnpm test:e2e", undefined, true],
    ["npm run e2e", undefined, true],
    ["npm test -- tests/e2e/", "vitest", true],
  ])("%s → %s (e2e %s)", (command, expected, e2e) => {
    const result = line(command, ctx);
    expect(result.isTest).toBe(true);
    expect(result.runner).toBe(expected);
    expect(result.e2e).toBe(e2e);
  });

  it("says which script ran what", () => {
    expect(line("npm run test:all", ctx).reason).toBe(
      'npm run test:all: script "test:all" runs npm run test:unit: script "test:unit" runs vitest',
    );
    expect(line("npm run test:e2e", ctx).reason).toBe(
      'npm run test:e2e: script "test:e2e" runs playwright test (end-to-end)',
    );
  });

  it.each([
    "npm run lint",
    "npm run typecheck",
    "pnpm lint",
    "yarn lint",
    "bun run lint",
    "npm run missing",
    "pnpm run missing",
    "npm install",
    "npm ci",
    "pnpm install",
    "pnpm add -D vitest",
    "yarn add jest",
    "yarn",
    "bun install",
    "bun add vitest",
    "npm run",
    "npm",
  ])("%s is not a test", (command) => {
    expect(line(command, ctx).isTest).toBe(false);
  });

  it("a test-named script whose body runs no test runner still counts, by its name", () => {
    expect(line("npm run test:types", ctx)).toMatchObject({
      isTest: true,
      runner: "vitest",
      reason: "npm run test:types (a test script by its name)",
    });
  });

  it("a loop of scripts ends", () => {
    expect(line("npm run loop", ctx).isTest).toBe(false);
  });

  it("npm's placeholder test script is not a test", () => {
    const placeholder = { test: 'echo "Error: no test specified" && exit 1' };
    expect(line("npm test", { packageScripts: placeholder, runners: [] }).isTest).toBe(false);
  });

  it("a package with no test script runs no test", () => {
    const result = line("npm test", { packageScripts: { build: "tsc" }, runners: [] });
    expect(result.isTest).toBe(false);
  });

  it("without the package's scripts, test-named scripts count and the JS runner is a guess", () => {
    const context: TestCommandContext = { runners: [runner("pytest"), runner("jest")] };
    expect(line("npm test", context)).toMatchObject({ isTest: true, runner: "jest", e2e: false });
    expect(line("pnpm run test:unit", context)).toMatchObject({ isTest: true, runner: "jest" });
    expect(line("yarn test:e2e", context)).toMatchObject({ isTest: true, e2e: true });
    expect(line("npm test", none)).toEqual({
      isTest: true,
      e2e: false,
      reason: "npm test (a test script by its name)",
    });
    expect(line("npm run lint", context).isTest).toBe(false);
  });

  it("workspace and filter flags judge another package's script by its name", () => {
    const context: TestCommandContext = { packageScripts: { build: "tsc" }, runners: [] };
    expect(line("npm test -w web", context).isTest).toBe(false);
    expect(line("npm -w web test", context).isTest).toBe(true);
    expect(line("npm --workspace=web run test", context).isTest).toBe(true);
    expect(line("pnpm -r test", context).isTest).toBe(true);
    expect(line("pnpm --filter web test", context).isTest).toBe(true);
    expect(line("yarn workspace web test", context).isTest).toBe(true);
  });

  it("pnpm and yarn run a binary when there is no script of that name", () => {
    expect(line("pnpm vitest run", ctx)).toMatchObject({ isTest: true, runner: "vitest" });
    expect(line("yarn jest", ctx)).toMatchObject({ isTest: true, runner: "jest" });
  });
});

describe("recogniseTestCommand: end-to-end", () => {
  it.each([
    "npx playwright test",
    "playwright test tests/checkout.spec.ts",
    "pnpm exec playwright test",
    "npx cypress run",
    "rails test:system",
    "pytest tests/e2e",
    "npx vitest run --config vitest.e2e.config.ts",
    "npx jest --selectProjects=e2e",
    "./gradlew connectedAndroidTest",
  ])("%s is an e2e test", (command) => {
    expect(line(command)).toMatchObject({ isTest: true, e2e: true });
  });

  it.each([
    "npx vitest run --exclude 'e2e/**'",
    "npx vitest run --exclude=e2e",
    "npx jest --testPathIgnorePatterns=e2e",
    "npx jest --testPathIgnorePatterns e2e",
    "pytest --ignore=tests/e2e",
    "pytest --ignore tests/e2e",
  ])("%s is a unit run that leaves e2e out", (command) => {
    expect(line(command)).toMatchObject({ isTest: true, e2e: false });
  });

  it.each(["npx playwright install", "npx cypress open", "playwright show-report"])(
    "%s is not a test",
    (command) => {
      expect(line(command).isTest).toBe(false);
    },
  );

  it("a line with a unit run and an e2e run is the unit run", () => {
    expect(line("npx playwright test && npx vitest run")).toMatchObject({
      isTest: true,
      runner: "vitest",
      e2e: false,
    });
  });
});

describe("recogniseTestCommand: not tests", () => {
  it.each([
    "echo pytest",
    "grep test",
    "grep -r 'npm test' .",
    "cat test_x.py",
    "ls tests",
    "git commit -m 'npm test passes'",
    "npm run lint",
    "npx tsc --noEmit",
    "npx eslint .",
    "pip install pytest",
    "uv add --dev pytest",
    "uv pip install pytest",
    "python test_x.py",
    "python -c 'import pytest'",
    "python -m pip install pytest",
    "pytest --version",
    "pytest --collect-only",
    "pytest --co -q",
    "jest --listTests",
    "vitest --version",
    "vitest bench",
    "vitest list",
    "node script.js --test",
    "node -e 'require(\"x\")' --test",
    "go vet ./...",
    "go build ./...",
    "go test -c ./billing",
    "go test -list . ./...",
    "cargo build",
    "cargo test --no-run",
    "cargo nextest list",
    "mvn install",
    "mvn compile",
    "mvn -DskipTests verify",
    "mvn -D skipTests test",
    "mvn -P test compile",
    "./gradlew build -x test",
    "./gradlew test -x test",
    "gradle assemble",
    "dotnet build",
    "dotnet test --list-tests",
    "swift build",
    "deno run main.ts",
    "bundle install",
    "bundle exec rubocop",
    "rails server",
    "rspec --init",
    "composer install",
    "php -l src/A.php",
    "php artisan migrate",
    "make build",
    "cd tests",
    "bash script.sh",
    "",
  ])("%j", (command) => {
    const result = line(command);
    expect(result.isTest).toBe(false);
    expect(result.reason).toMatch(/^no test command in: /);
  });
});

describe("recogniseTestCommand: several commands", () => {
  it("skips cd and finds the test after it", () => {
    expect(
      recogniseTestCommand(
        [
          ["cd", "web"],
          ["npm", "test"],
        ],
        { packageScripts: { test: "jest" }, runners: [] },
      ),
    ).toMatchObject({ isTest: true, runner: "jest" });
  });

  it("lists what it saw when nothing is a test", () => {
    expect(
      recogniseTestCommand(
        [
          ["cd", "web"],
          ["npm", "run", "lint"],
          ["echo", "done"],
        ],
        { packageScripts: { lint: "eslint ." }, runners: [] },
      ),
    ).toEqual({ isTest: false, reason: "no test command in: npm run lint; echo done" });
  });

  it("make test, just test: the runner when only one is detected", () => {
    expect(line("make test", { runners: [runner("go")] })).toMatchObject({
      isTest: true,
      runner: "go",
    });
    expect(line("make -C api test", { runners: [runner("go"), runner("pytest")] })).toEqual({
      isTest: true,
      e2e: false,
      reason: "make test (a test target by its name)",
    });
    expect(line("just test-e2e")).toMatchObject({ isTest: true, e2e: true });
    expect(line("composer test", { runners: [runner("phpunit")] })).toMatchObject({
      isTest: true,
      runner: "phpunit",
    });
    expect(line("turbo run test", { runners: [runner("vitest")] })).toMatchObject({
      isTest: true,
      runner: "vitest",
    });
    expect(line("nx run-many -t lint,test")).toMatchObject({ isTest: true });
    expect(line("turbo run build").isTest).toBe(false);
  });
});

describe("splitScript", () => {
  it.each<[string, string[][]]>([
    ["vitest run", [["vitest", "run"]]],
    [
      "npm run lint && npm test",
      [
        ["npm", "run", "lint"],
        ["npm", "test"],
      ],
    ],
    ["a; b || c | d & e\nf", [["a"], ["b"], ["c"], ["d"], ["e"], ["f"]]],
    ["(cd web && jest)", [["cd", "web"], ["jest"]]],
    [`echo "a b" 'c d' e\\ f`, [["echo", "a b", "c d", "e f"]]],
    [`echo "say \\"hi\\""`, [["echo", 'say "hi"']]],
    ["jest > out.txt 2>&1", [["jest"]]],
    ["jest >out.txt", [["jest"]]],
    ["jest 2> err.log", [["jest"]]],
    ["jest &> all.log; echo", [["jest"], ["echo"]]],
    ["jest < in.txt", [["jest"]]],
    ["echo $(npm test) done", [["echo", "$(npm test)", "done"]]],
    ["NODE_ENV=test jest --ci", [["NODE_ENV=test", "jest", "--ci"]]],
    ["", []],
  ])("%j", (text, expected) => {
    expect(splitScript(text)).toEqual(expected);
  });
});

describe("recogniseTestCommand: words that name an object's inherited members", () => {
  it.each(["__proto__", "constructor", "toString", "hasOwnProperty"])(
    "%s is no test command",
    (word) => {
      expect(line(`${word} tests`)).toMatchObject({ isTest: false });
    },
  );
});
