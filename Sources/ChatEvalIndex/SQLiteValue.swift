import Foundation

enum SQLiteValue {
    case integer(Int)
    case real(Double)
    case text(String)
    case blob(Data)
}
