import NextUpCLI
