import Foundation
import NextUpCLI

exit(NextUpMain.run(Array(CommandLine.arguments.dropFirst())))
