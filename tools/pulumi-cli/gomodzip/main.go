// Command gomodzip writes a Go module into a folder in the layout a GOPROXY serves (`GOPROXY=file:///...` or any
// static HTTP server), with Go's own module zip code (golang.org/x/mod/zip, which checks what a module may hold).
// Usage:
//
//	gomodzip <module dir> <version> <proxy dir>
//
// It writes <proxy dir>/<escaped module path>/@v/{list,<version>.info,<version>.mod,<version>.zip}.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

func main() {
	if len(os.Args) != 4 {
		fail(fmt.Errorf("usage: gomodzip <module dir> <version> <proxy dir>"))
	}
	dir, version, proxy := os.Args[1], os.Args[2], os.Args[3]
	modText, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	fail(err)
	path := modfile.ModulePath(modText)
	mv := module.Version{Path: path, Version: version}
	fail(module.Check(path, version))
	escaped, err := module.EscapePath(path)
	fail(err)
	at := filepath.Join(proxy, filepath.FromSlash(escaped), "@v")
	fail(os.MkdirAll(at, 0o755))
	out, err := os.Create(filepath.Join(at, version+".zip"))
	fail(err)
	fail(zip.CreateFromDir(out, mv, dir))
	fail(out.Close())
	fail(os.WriteFile(filepath.Join(at, version+".mod"), modText, 0o644))
	info, err := json.Marshal(map[string]string{"Version": version, "Time": time.Now().UTC().Format(time.RFC3339)})
	fail(err)
	fail(os.WriteFile(filepath.Join(at, version+".info"), info, 0o644))
	fail(os.WriteFile(filepath.Join(at, "list"), []byte(version+"\n"), 0o644))
}

func fail(err error) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "gomodzip: %v\n", err)
		os.Exit(1)
	}
}
