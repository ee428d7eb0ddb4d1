// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice What the factory tells the court's outcome hook when a case is filed (CourtReputation):
/// the agents that case's feedback will go to are fixed then.
interface ICaseFiledHook {
    /// @notice A case was filed; only the factory calls it.
    /// @param caseAddr The case.
    /// @param plaintiff The plaintiff.
    /// @param defendant The defendant.
    /// @param plaintiffOnRecord Whether the case goes on the plaintiff's record.
    /// @param defendantOnRecord Whether the case goes on the defendant's record.
    function caseFiled(
        address caseAddr,
        address plaintiff,
        address defendant,
        bool plaintiffOnRecord,
        bool defendantOnRecord
    ) external;
}
