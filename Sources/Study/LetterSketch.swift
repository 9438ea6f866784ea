import Foundation
package import RoteModel

/// A letter's stroke template drawn in text, for checking a letter written on paper: each
/// stroke's path in dots, its first point numbered in writing order. The template's 100×100
/// box becomes `width`×`height` cells (terminal cells are about twice as tall as wide).
package enum LetterSketch {
    package static func render(_ letter: LetterEntry, width: Int = 24, height: Int = 12) -> String {
        var grid = Array(repeating: Array(repeating: Character(" "), count: width), count: height)
        func cell(_ point: LetterEntry.Point) -> (Int, Int) {
            let column = min(width - 1, max(0, Int((point.x / 100 * Double(width - 1)).rounded())))
            let row = min(height - 1, max(0, Int((point.y / 100 * Double(height - 1)).rounded())))
            return (row, column)
        }
        for stroke in letter.strokes {
            for (from, to) in zip(stroke, stroke.dropFirst()) {
                let steps = max(1, Int((max(abs(to.x - from.x), abs(to.y - from.y)) / 2).rounded(.up)))
                for step in 0...steps {
                    let t = Double(step) / Double(steps)
                    let (row, column) = cell(.init(x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t))
                    grid[row][column] = "•"
                }
            }
            if stroke.count == 1 {
                let (row, column) = cell(stroke[0])
                grid[row][column] = "•"
            }
        }
        for (number, stroke) in letter.strokes.enumerated() {
            guard let first = stroke.first else { continue }
            let (row, column) = cell(first)
            grid[row][column] = Character(String(min(number + 1, 9)))
        }
        return grid.map { String($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }.joined(
            separator: "\n")
    }
}
